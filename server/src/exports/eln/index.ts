/** The .eln archive (ELN Consortium format, RO-Crate 1.2, minisign-signed): export, import and the signing key. */
export { exportPublicKey } from './minisign.js';
export { writeElnArchive, type DamagedFile, type ElnExportOptions, type ElnExportResult } from './writeArchive.js';
export { importElnArchive, type ElnImportOptions, type ElnImportResult, type ElnImportUser, type ElnSignedBy } from './importArchive.js';
export { ELN_MEDIA_TYPE } from './crate.js';
