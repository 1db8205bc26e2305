// The links of a Markdown file, as tests/docs/docs.test.mjs and tests/package/readme-links.test.mjs
// read them: outside code (fenced blocks and inline spans, where links are not links).

/** Markdown without its code. */
export const prose = (md) => md.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');

/** The targets of its links and images, as written (`path#hash`, `https://...`). */
export const linkTargets = (md) => [...prose(md).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map((m) => m[1]);

/** Whether a target leaves the file's tree (https:, mailto:, ...). */
export const isAbsolute = (target) => /^[a-z][a-z0-9+.-]*:/i.test(target);
