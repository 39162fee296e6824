CREATE TABLE "line_follows" (
	"line_user_id" text PRIMARY KEY NOT NULL,
	"following" boolean NOT NULL,
	"changed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "line_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text,
	"line_user_id" text NOT NULL,
	"kind" text NOT NULL,
	"salon_id" uuid,
	"booking_id" uuid,
	"messages" jsonb NOT NULL,
	"fallback_mail" jsonb,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "line_messages_status_valid" CHECK ("line_messages"."status" in ('pending', 'sent', 'fell_back', 'dropped')),
	CONSTRAINT "line_messages_kind_valid" CHECK ("line_messages"."kind" in ('booking', 'reminder', 'waitlist', 'review'))
);
--> statement-breakpoint
CREATE TABLE "message_channels" (
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"channel" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_channels_user_id_kind_pk" PRIMARY KEY("user_id","kind"),
	CONSTRAINT "message_channels_kind_valid" CHECK ("message_channels"."kind" in ('booking', 'reminder', 'waitlist', 'review')),
	CONSTRAINT "message_channels_channel_valid" CHECK ("message_channels"."channel" in ('mail', 'line', 'both'))
);
--> statement-breakpoint
ALTER TABLE "line_messages" ADD CONSTRAINT "line_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_messages" ADD CONSTRAINT "line_messages_salon_id_salons_id_fk" FOREIGN KEY ("salon_id") REFERENCES "public"."salons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "line_messages" ADD CONSTRAINT "line_messages_booking_id_bookings_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."bookings"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_channels" ADD CONSTRAINT "message_channels_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "line_messages_sent_idx" ON "line_messages" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "line_messages_line_user_idx" ON "line_messages" USING btree ("line_user_id","created_at");--> statement-breakpoint
CREATE INDEX "line_messages_user_idx" ON "line_messages" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "line_messages_salon_idx" ON "line_messages" USING btree ("salon_id");--> statement-breakpoint
CREATE INDEX "line_messages_booking_idx" ON "line_messages" USING btree ("booking_id");