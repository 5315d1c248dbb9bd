// The fixed parts of an .xlsx package (Office Open XML, SpreadsheetML) around the streamed sheets: the
// smallest set Excel, LibreOffice and exceljs open. Sheets are named in the workbook written last, when
// their number is known.

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PACKAGE_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const SHEET_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';

/** Cell style indexes in `styles.xml`: dates and timestamps are numbers shown with a date format. */
export const DATE_STYLE = 1;
export const TIMESTAMP_STYLE = 2;

/** The opening of a sheet's XML, up to its first row. */
export const SHEET_START = `${XML_HEAD}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetData>`;
export const SHEET_END = '</sheetData></worksheet>';

/** Path of the `n`th sheet (from 1) inside the package. */
export const sheetPath = (n: number) => `xl/worksheets/sheet${n}.xml`;

/** `[Content_Types].xml` for `sheets` sheets. */
export function contentTypes(sheets: number): string {
  const overrides = Array.from({ length: sheets }, (_, i) => `<Override PartName="/${sheetPath(i + 1)}" ContentType="${SHEET_TYPE}"/>`).join('');
  return `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`
    + '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    + '<Default Extension="xml" ContentType="application/xml"/>'
    + '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    + '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
    + `${overrides}</Types>`;
}

/** `_rels/.rels`: the package's way to its workbook. */
export const PACKAGE_RELS = `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}">`
  + `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

/** `xl/styles.xml`: the default style, a date (built-in format 14) and a date with time (22). */
export const STYLES = `${XML_HEAD}<styleSheet xmlns="${MAIN_NS}">`
  + '<fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
  + '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>'
  + '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
  + '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
  + '<cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
  + '<xf numFmtId="14" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
  + '<xf numFmtId="22" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs>'
  + '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>';

/** `xl/workbook.xml` naming the sheets. */
export function workbook(names: readonly string[]): string {
  const sheets = names.map((name, i) => `<sheet name="${xmlText(name)}" sheetId="${i + 1}" r:id="rId${i + 2}"/>`).join('');
  return `${XML_HEAD}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${sheets}</sheets></workbook>`;
}

/** `xl/_rels/workbook.xml.rels`: styles as rId1, sheet n as rId(n+1). */
export function workbookRels(sheets: number): string {
  const rels = Array.from({ length: sheets }, (_, i) => `<Relationship Id="rId${i + 2}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('');
  return `${XML_HEAD}<Relationships xmlns="${PACKAGE_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/styles" Target="styles.xml"/>${rels}</Relationships>`;
}

// Characters XML 1.0 cannot carry at all (control characters but tab and line ends, U+FFFE/U+FFFF,
// lone surrogates): one in a cell would make the whole workbook unreadable, so they are dropped.
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
// eslint-disable-next-line no-control-regex
const XML_SPECIAL = /[&<>"\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;
const XML_SPECIAL_ALL = /[&<>"]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** Text escaped for an XML text node or attribute; most cells need nothing, so they are tested first. */
export function xmlText(text: string): string {
  return XML_SPECIAL.test(text) ? text.replace(XML_FORBIDDEN, '').replace(XML_SPECIAL_ALL, (c) => ENTITIES[c]!) : text;
}

/** The column letters of the 0-based column `i` (A, B... Z, AA...). */
export function columnLetters(i: number): string {
  let n = i + 1;
  let out = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    out = String.fromCharCode(65 + rem) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}
