import { StrictMode, startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { ErrorScreen } from "./components/error-screen";

/**
 * SPEC.md §8: a failure while mounting is logged as 'Error while mounting
 * app:' and the page becomes the generic error screen instead of a
 * half-working server render.
 */
function showMountFailure(error: unknown) {
  console.error("Error while mounting app:", error);
  if (!document.body) document.documentElement.append(document.createElement("body"));
  const container = document.createElement("main");
  document.body.replaceChildren(container);
  createRoot(container).render(<ErrorScreen status={500} />);
}

startTransition(() => {
  try {
    hydrateRoot(
      document,
      <StrictMode>
        <HydratedRouter />
      </StrictMode>,
      { onUncaughtError: showMountFailure },
    );
  } catch (error) {
    showMountFailure(error);
  }
});
