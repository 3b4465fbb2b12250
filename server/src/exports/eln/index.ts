/** The .eln archive (ELN Consortium format, RO-Crate 1.2, minisign-signed): export, import and the signing key. */
export { exportPublicKey } from './minisign.js';
export { writeElnArchive, type ElnExportOptions, type ElnExportResult } from './writeArchive.js';
export { importElnArchive, type ElnImportUser } from './importArchive.js';
export { ImportBudget } from './importBudget.js';
