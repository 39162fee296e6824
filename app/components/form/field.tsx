import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useEffect,
  useRef,
} from "react";

type FieldFrameProps = {
  id: string;
  label: string;
  error?: string;
  hint?: string;
  required?: boolean;
  children: ReactNode;
};

/** Label, control, hint and error, wired together for screen readers. */
function FieldFrame({ id, label, error, hint, required, children }: FieldFrameProps) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-bold">
        {label}
        {required ? (
          <span className="ml-2 rounded bg-brand-700 px-1.5 py-0.5 text-xs text-white">必須</span>
        ) : null}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-neutral-700">
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm font-bold text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const controlClass = (error?: string) =>
  `w-full rounded-lg border px-3 py-2 ${error ? "border-red-700 bg-red-50" : "border-neutral-400"}`;

const describedBy = (id: string, error?: string, hint?: string) =>
  [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;

type Common = { id: string; label: string; error?: string; hint?: string };

export function TextField({
  id,
  label,
  error,
  hint,
  ...input
}: Common & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} required={input.required}>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={controlClass(error)}
        {...input}
      />
    </FieldFrame>
  );
}

export function TextAreaField({
  id,
  label,
  error,
  hint,
  ...textarea
}: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} required={textarea.required}>
      <textarea
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={controlClass(error)}
        {...textarea}
      />
    </FieldFrame>
  );
}

export function SelectField({
  id,
  label,
  error,
  hint,
  options,
  placeholder,
  ...select
}: Common & {
  options: { value: string; label: string }[];
  placeholder?: string;
} & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint} required={select.required}>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={controlClass(error)}
        {...select}
      >
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/**
 * Lists every problem at the top of a form. Each failed submit brings a new
 * `errors` object (the action's answer), and focus moves here so keyboard
 * and screen-reader users start from the list instead of the submit button;
 * role=alert also announces it after a full page load (no JavaScript).
 */
export function ErrorSummary({ errors }: { errors: Record<string, string | undefined> }) {
  const ref = useRef<HTMLDivElement>(null);
  const messages = Object.entries(errors).filter(([, message]) => message);
  const hasErrors = messages.length > 0;
  useEffect(() => {
    if (hasErrors && errors) ref.current?.focus();
  }, [errors, hasErrors]);
  if (!hasErrors) return null;
  return (
    <div
      ref={ref}
      role="alert"
      tabIndex={-1}
      className="rounded-lg border-2 border-red-700 bg-red-50 p-4 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-700"
    >
      <p className="font-bold text-red-700">入力内容を確認してください。</p>
      <ul className="mt-2 list-disc pl-5 text-sm">
        {messages.map(([field, message]) => (
          <li key={field}>{message}</li>
        ))}
      </ul>
    </div>
  );
}
