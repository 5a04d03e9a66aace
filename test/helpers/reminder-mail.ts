import type { OutgoingMail } from "../../src/engines/reminders/delivery.js";

/** One reminder as the sender hands it to composition: the compose tests vary it field by field. */
export const reminderMail: OutgoingMail = {
  from: "Training <training@example.test>",
  to: "ann@example.test",
  subject: "Due today",
  text: "Hello Ann\nline two\n",
  html: "<p>Hi</p>",
  messageId: "<0123456789abcdef0123456789abcdef.simadmin@example.test>",
  kind: "reminder",
};
