// What a typed answer must look like before it is sent; each returns the
// problem to show, or undefined when the answer will do. The API has the
// final word (attendee_email_invalid, count_out_of_range, validation_error).

/** A plausible email address. */
export function emailProblem(text: string): string | undefined {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) ? undefined : 'Type an email address, such as kim@example.com.';
}

/** `HH:MM`, 24-hour. */
export function timeProblem(text: string): string | undefined {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(text) ? undefined : 'Type a 24-hour time, such as 09:30.';
}

/** A real calendar date as `YYYY-MM-DD`. */
export function dateProblem(text: string): string | undefined {
  const ok = /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
  return ok ? undefined : 'Type a date as YYYY-MM-DD.';
}

/** A series' count: 1 to 42 (docs/api). */
export function countProblem(text: string): string | undefined {
  return /^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= 42 ? undefined : 'Type a number from 1 to 42.';
}
