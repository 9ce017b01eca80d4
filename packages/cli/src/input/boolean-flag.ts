/** A `<true|false>` flag's value; anything else is passed on as it is, for the API to refuse by the field's name. */
export const booleanFlag = (text: string): boolean | string => (text === 'true' ? true : text === 'false' ? false : text);
