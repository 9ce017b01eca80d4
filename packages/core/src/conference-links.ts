/** Makes the conference link a booking without a fixed location carries. Passed in, like every port. */
export interface ConferenceLinks {
  linkFor(bookingUid: string): string;
}

/** Links under one base URL: `<base>/<booking uid>`. */
export function conferenceLinksAt(baseUrl: string): ConferenceLinks {
  const base = baseUrl.replace(/\/+$/, '');
  return { linkFor: (uid) => `${base}/${uid}` };
}
