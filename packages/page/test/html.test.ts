import { describe, expect, it } from 'vitest';
import { escapeHtml, Html, html, raw } from '../src/html.js';

// html.ts: every value put into a template is escaped unless it is markup the tag made.

describe('escapeHtml', () => {
  it('escapes the five characters that end text or a quoted attribute, and nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
    expect(escapeHtml('plain text, ünïcode – 42 / \\ ` =')).toBe('plain text, ünïcode – 42 / \\ ` =');
    expect(escapeHtml('')).toBe('');
  });

  it('escapes every occurrence, not just the first', () => {
    expect(escapeHtml('<<>>&&""\'\'')).toBe('&lt;&lt;&gt;&gt;&amp;&amp;&quot;&quot;&#39;&#39;');
  });
});

describe('html', () => {
  it('escapes every value, in element text and in attributes', () => {
    const name = '<script>alert("x")</script>';
    const title = `" onmouseover='x`;
    expect(html`<p title="${title}">${name}</p>`.text).toBe(
      '<p title="&quot; onmouseover=&#39;x">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;</p>',
    );
  });

  it('puts markup it made in as it is: never escaped twice', () => {
    const inner = html`<b>${'a & b'}</b>`;
    const outer = html`<p>${inner}</p>`;
    expect(outer.text).toBe('<p><b>a &amp; b</b></p>');
    expect(html`<div>${outer}</div>`.text).toBe('<div><p><b>a &amp; b</b></p></div>');
    expect(html`${raw('<br>')}`.text).toBe('<br>');
  });

  it('joins lists without separators, escaping strings in them and nesting lists', () => {
    const items = ['<1>', html`<i>2</i>`, ['3', ['&']]];
    expect(html`<ul>${items}</ul>`.text).toBe('<ul>&lt;1&gt;<i>2</i>3&amp;</ul>');
    expect(html`<ul>${[]}</ul>`.text).toBe('<ul></ul>');
  });

  it('leaves out null, undefined and false; writes true, numbers and zero', () => {
    expect(html`[${null}|${undefined}|${false}]`.text).toBe('[||]');
    expect(html`[${true}|${0}|${-1.5}|${''}]`.text).toBe('[true|0|-1.5|]');
    expect(html`${[null, 'a', false, undefined, 1]}`.text).toBe('a1');
  });

  it('keeps the template around the values, at the start, the end and between two values', () => {
    expect(html`${'a'}${'b'}`.text).toBe('ab');
    expect(html`start ${'x'} middle ${'y'} end`.text).toBe('start x middle y end');
    expect(html`no values`.text).toBe('no values');
    expect(html``.text).toBe('');
  });

  it('is an Html whose string is its markup', () => {
    const page = html`<p>${'<'}</p>`;
    expect(page).toBeInstanceOf(Html);
    expect(String(page)).toBe('<p>&lt;</p>');
    expect(`${raw('<hr>')}`).toBe('<hr>');
  });

  it('escapes a string that merely looks like markup, and an object that is not an Html', () => {
    const lookalike = { text: '<b>' } as unknown as string;
    expect(html`${lookalike}`.text).toBe('[object Object]');
    expect(html`${'<b>bold</b>'}`.text).toBe('&lt;b&gt;bold&lt;/b&gt;');
  });
});
