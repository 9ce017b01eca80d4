/**
 * A flag's number, or its text unchanged when it is not one, so that the
 * API's validation names the field rather than the CLI guessing.
 */
export const numberFlag = (text: string): number | string => (/^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text);
