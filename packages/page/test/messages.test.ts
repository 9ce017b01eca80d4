import { describe, expect, it } from 'vitest';
import { de } from '../src/messages/de.js';
import { en } from '../src/messages/en.js';
import { CATALOGUE, chooseLanguage } from '../src/messages/messages.js';

// chooseLanguage: `lang` when ours, else the best of Accept-Language we have (by q-value), else English;
// the locale keeps the visitor's region when it is of the chosen language.

const chosen = (lang: string | undefined, accept: string | undefined) => {
  const { messages, locale } = chooseLanguage(lang, accept);
  return [messages.lang, locale];
};

describe('chooseLanguage', () => {
  it('holds English and German, English first', () => {
    expect([...CATALOGUE.keys()]).toEqual(['en', 'de']);
    expect(chooseLanguage(undefined, undefined).messages).toBe(en);
    expect(chooseLanguage(undefined, 'de').messages).toBe(de);
  });

  it('is English when nothing is asked for, or nothing asked for is ours', () => {
    expect(chosen(undefined, undefined)).toEqual(['en', 'en']);
    expect(chosen(undefined, '')).toEqual(['en', 'en']);
    expect(chosen(undefined, 'fr-FR, es;q=0.8')).toEqual(['en', 'en']);
    expect(chosen(undefined, '*')).toEqual(['en', 'en']);
  });

  it('takes the first language we have, keeping the region as the locale', () => {
    expect(chosen(undefined, 'de-DE,de;q=0.9,en;q=0.8')).toEqual(['de', 'de-DE']);
    expect(chosen(undefined, 'fr-FR, de;q=0.5, en;q=0.4')).toEqual(['de', 'de']);
    expect(chosen(undefined, 'en-US')).toEqual(['en', 'en-US']);
    expect(chosen(undefined, 'en-GB,en;q=0.5')).toEqual(['en', 'en-GB']);
    expect(chosen(undefined, 'DE-AT')).toEqual(['de', 'DE-AT']);
  });

  it('ranks by q-value, the order given breaking ties; q=0 means not wanted', () => {
    expect(chosen(undefined, 'en;q=0.3, de;q=0.7')).toEqual(['de', 'de']);
    expect(chosen(undefined, 'de;q=0.5, en;q=0.5')).toEqual(['de', 'de']);
    expect(chosen(undefined, 'en;q=0.5, de;q=0.5')).toEqual(['en', 'en']);
    expect(chosen(undefined, 'de;q=0, en')).toEqual(['en', 'en']);
    expect(chosen(undefined, 'de;q=0.0')).toEqual(['en', 'en']);
    expect(chosen(undefined, 'en;q=0.001, de;q=0.002')).toEqual(['de', 'de']);
    // No q is q=1: above any q below it, level with q=1 (then by order).
    expect(chosen(undefined, 'en;q=0.999, de')).toEqual(['de', 'de']);
    expect(chosen(undefined, 'en;q=1, de')).toEqual(['en', 'en']);
    // Spaces around the parameter are allowed.
    expect(chosen(undefined, 'en ; q=0.2 , de ;  q=0.9')).toEqual(['de', 'de']);
  });

  it('reads a q that is not a q-value as none given (q=1), and takes the region of the best ranked tag', () => {
    expect(chosen(undefined, 'de;q=0.5, en;q=2')).toEqual(['en', 'en']);
    expect(chosen(undefined, 'de;q=0.5, en;q=abc')).toEqual(['en', 'en']);
    expect(chosen(undefined, 'de;q=0.5, en;q=0.1234')).toEqual(['en', 'en']);
    expect(chosen(undefined, 'de-CH;q=0.4, de-AT;q=0.6')).toEqual(['de', 'de-AT']);
  });

  it('skips tags that are not language tags', () => {
    expect(chosen(undefined, 'd e, de-AT')).toEqual(['de', 'de-AT']);
    expect(chosen(undefined, 'deutschland1, de')).toEqual(['de', 'de']);
    expect(chosen(undefined, 'toolonglang, de')).toEqual(['de', 'de']);
    expect(chosen(undefined, 'en-, de')).toEqual(['de', 'de']);
    expect(chosen(undefined, '-en, de')).toEqual(['de', 'de']);
  });

  it('reads a header of up to 256 characters and at most 16 of its entries', () => {
    const filler = (length: number) => `de,${'x'.repeat(length - 3)}`;
    expect(filler(256)).toHaveLength(256);
    expect(chosen(undefined, filler(256))).toEqual(['de', 'de']);
    expect(chosen(undefined, filler(257))).toEqual(['en', 'en']);
    const unknown = Array.from({ length: 15 }, () => 'fr');
    expect(chosen(undefined, [...unknown, 'de'].join(','))).toEqual(['de', 'de']);
    expect(chosen(undefined, [...unknown, 'fr', 'de'].join(','))).toEqual(['en', 'en']);
  });

  it('takes lang from the address over the header when it is ours, keeping a region the header gives for it', () => {
    expect(chosen('de', 'en-US')).toEqual(['de', 'de']);
    expect(chosen('de', 'en-US, de-CH;q=0.1')).toEqual(['de', 'de-CH']);
    expect(chosen('en', 'de-DE, en-GB;q=0.5')).toEqual(['en', 'en-GB']);
    expect(chosen('de', undefined)).toEqual(['de', 'de']);
    // A lang of no language of ours is ignored.
    expect(chosen('fr', 'de')).toEqual(['de', 'de']);
    // Language tags are case-insensitive (RFC 5646): DE is German.
    expect(chosen('DE', 'en')).toEqual(['de', 'de']);
    expect(chosen('', 'de')).toEqual(['de', 'de']);
  });
});
