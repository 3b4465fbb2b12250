import type { Language } from '@eln/shared';

/**
 * The text fonts of a rendered note, by the reader's language; nothing is fetched, so each stack names
 * fonts a reader's system may have. On the server (Debian) the Korean and Japanese glyphs come from
 * TrueType fonts, named before the Noto CJK collections: chromium 156 prints a page that uses a Noto CJK
 * collection (OpenType CFF, embedded as Type 3 glyphs) in 1.0-1.3 s, against 0.45-0.55 s for the same page
 * in NanumGothic or IPAexGothic and 0.3-0.4 s for Latin text alone; the Noto CJK
 * families stay as the fallback for characters those lack. English and Korean name Latin fonts first
 * (Hangul and Han reach the CJK fonts by fallback). Japanese keeps a Japanese font first: its quotes,
 * dashes and ellipses are full-width there, and a Latin font would set them narrow (IPAexGothic has Noto
 * Sans CJK JP's widths: full-width kana and punctuation, proportional Latin; it has no bold, which
 * chromium draws, embedded as Type 3 glyphs that print as fast). Hangul in Japanese text comes from
 * NanumGothic, and what neither has (µ, accented Latin letters) from Liberation Sans, not from Noto CJK.
 * On Debian: fonts-liberation (Arial's metrics; only recommended by chromium, so installed by name),
 * fonts-nanum (Korean), fonts-ipaexfont-gothic (Japanese) and fonts-noto-cjk (the fallback).
 */
export const TEXT_FONTS: Record<Language, string> = {
  en: '"Noto Sans", "Segoe UI", Arial, "Liberation Sans", NanumGothic, IPAexGothic, "Noto Sans CJK KR", "Noto Sans CJK JP", sans-serif',
  ko: '"Noto Sans", "Segoe UI", Arial, "Liberation Sans", NanumGothic, IPAexGothic, "Noto Sans CJK KR", "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", sans-serif',
  ja: 'IPAexGothic, NanumGothic, "Liberation Sans", "Noto Sans CJK JP", "Noto Sans JP", "Hiragino Sans", "Yu Gothic", "Meiryo", sans-serif',
};
/**
 * Code: a monospace whose Latin letters are half a Hangul syllable wide first, so that code mixing them
 * keeps its columns (a Latin monospace is 0.6 of one); NanumGothicCoding is TrueType, printed in a third of
 * the time of Noto Sans Mono CJK (0.4 against 1.1-1.3 s a page, which any code block cost before).
 * What it lacks: Latin letters and signs (µ, é, −) from Liberation Mono, kanji (Japanese forms) from
 * IPAexGothic, a syllable wide too.
 */
const CODE_FONTS = 'NanumGothicCoding, "Liberation Mono", IPAexGothic, "Noto Sans Mono CJK KR", "Noto Sans Mono", Consolas, monospace';
/** Hashes and other Latin-only monospace text: a Latin monospace first, for the speed said above. */
export const LATIN_MONO_FONTS = '"Noto Sans Mono", Consolas, "Liberation Mono", "DejaVu Sans Mono", monospace';

/**
 * The page's own stylesheet: readable on screen, sober on paper (fonts: TEXT_FONTS).
 * Tables repeat their head on each printed page, and figures, rows and images are not split.
 */
export const PRINT_STYLE = `
@page { size: A4; margin: 18mm 16mm; }
html { color: #1a1a1a; background: #fff; font-size: 11pt; line-height: 1.55; }
body { margin: 0 auto; max-width: 48rem; padding: 1rem; font-family: ${TEXT_FONTS.en}; }
:lang(ko) body, body:lang(ko) { font-family: ${TEXT_FONTS.ko}; }
:lang(ja) body, body:lang(ja) { font-family: ${TEXT_FONTS.ja}; }
@media print { body { padding: 0; max-width: none; } }
.eln-note-title { font-size: 1.6rem; margin: 0 0 1rem; padding-bottom: .4rem; border-bottom: 2px solid #333; }
h1, h2, h3, h4 { line-height: 1.3; break-after: avoid; }
p { margin: .45rem 0; }
blockquote { margin: .6rem 0; padding: .1rem 0 .1rem .9rem; border-left: 3px solid #999; color: #444; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f4f4f4; border: 1px solid #ddd; padding: .6rem .8rem; font-size: .9em; }
code { font-family: ${CODE_FONTS}; }
hr { border: 0; border-top: 1px solid #999; margin: 1rem 0; }
table { border-collapse: collapse; margin: .8rem 0; max-width: 100%; }
th, td { border: 1px solid #888; padding: .25rem .5rem; vertical-align: top; text-align: left; }
th { background: #efefef; }
th p, td p { margin: 0; }
thead { display: table-header-group; }
tr, figure, img, .eln-file, .eln-date { break-inside: avoid; }
caption { caption-side: top; text-align: left; font-size: .9em; color: #444; padding-bottom: .2rem; }
.eln-dropbox { font-size: .85em; color: #555; }
.eln-dropbox-value { font-weight: 600; }
.eln-schema caption { text-align: left; font-weight: 600; padding-bottom: .25rem; }
.eln-schema tbody th { width: 30%; text-align: left; }
figure { margin: 1rem 0; }
figcaption { font-size: .95em; }
.eln-chart figcaption { display: flex; flex-wrap: wrap; gap: .2rem .8rem; align-items: baseline; }
.eln-chart-name { font-weight: 700; }
.eln-chart-label { color: #444; }
.eln-chart-data { min-width: 16rem; }
.eln-chart-data td { text-align: right; font-variant-numeric: tabular-nums; }
img { display: block; max-width: 100%; height: auto; }
.eln-missing { border: 1px dashed #999; color: #555; padding: .8rem; font-size: .9em; }
.eln-file-name { font-weight: 600; }
.eln-file-meta, .eln-empty { color: #555; }
.eln-mention { font-weight: 600; white-space: nowrap; }
`.trim();
