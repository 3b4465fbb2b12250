import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { api, EXPORT_LIMITS, fieldMessage, type ExportCreateRequest, type ExportFormat, type ProjectRow } from '@eln/shared';
import { apiErrorText, call } from '../../api';
import { useApiQuery } from '../../api/queries';
import { currentLanguage } from '../../i18n';
import { Button } from '../../ui/Button';
import { CloseIcon, DownloadIcon, SearchIcon } from '../../ui/icons';
import { DateRangeField } from '../../ui/DateRangeField';
import { Checkbox } from '../../ui/Field';
import { ArchiveIcon, FileCsvIcon, FilePdfIcon } from '../audit/icons';
import { PdfSupportNotice } from './PdfSupportNotice';

const FORMAT_ICONS = { pdf: FilePdfIcon, eln: ArchiveIcon, auditCsv: FileCsvIcon } as const;

interface ExportFormProps {
  /** The formats offered (the audit CSV only to administrators: the server decides, the page passes it on). */
  formats: readonly ExportFormat[];
  /** Export this project (the project screen); without it the form lets the user choose projects. */
  projectNo?: number;
  onStart(request: ExportCreateRequest): Promise<unknown>;
  testId: string;
}

type Chosen = Pick<ProjectRow, 'no' | 'title'>;

/** Format, days and (on the download page) projects of a new export. */
export function ExportForm({ formats, projectNo, onStart, testId }: ExportFormProps) {
  const { t } = useTranslation('audit');
  const support = useApiQuery(api.exports.support, {}).data;
  const [chosenFormat, setFormat] = useState<ExportFormat>(formats[0] ?? 'pdf');
  // Without chromium the server prints no PDF: the form offers the other formats and says why.
  const noPdf = support?.pdf === false;
  const format = noPdf && chosenFormat === 'pdf' ? (formats.find((option) => option !== 'pdf') ?? chosenFormat) : chosenFormat;
  const [range, setRange] = useState({ startDate: '', endDate: '' });
  const [chosen, setChosen] = useState<Chosen[]>([]);
  const [pdfA, setPdfA] = useState(false);
  const [changes, setChanges] = useState(false);
  const [comments, setComments] = useState(false);
  const [busy, setBusy] = useState(false);
  const [missingProject, setMissingProject] = useState(false);
  const needsProjects = format !== 'auditCsv' && projectNo === undefined;
  const rangeError =
    range.startDate && range.endDate && range.startDate > range.endDate
      ? fieldMessage({ reason: 'dateOrder' }, currentLanguage())
      : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || rangeError) return;
    if (needsProjects && !chosen.length) {
      setMissingProject(true);
      return;
    }
    setBusy(true);
    try {
      await onStart({
        format,
        projectNos: format === 'auditCsv' ? [] : projectNo !== undefined ? [projectNo] : chosen.map((p) => p.no),
        startDate: range.startDate,
        endDate: range.endDate,
        pdfA: format === 'pdf' && pdfA && support?.pdfA !== false,
        changes: format === 'pdf' && changes,
        comments: format === 'pdf' && comments,
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="export-form" onSubmit={(event) => void submit(event)} data-testid={testId} noValidate>
      <fieldset className="export-formats">
        <legend className="field-label">{t('exports.formatLegend')}</legend>
        {formats.map((option) => {
          const Icon = FORMAT_ICONS[option];
          return (
            <label
              key={option}
              className={`export-format${format === option ? ' export-format-on' : ''}${option === 'pdf' && noPdf ? ' export-format-off' : ''}`}
              data-testid={`${testId}-format-${option}`}
            >
              <input
                type="radio"
                name={`${testId}-format`}
                value={option}
                checked={format === option}
                disabled={option === 'pdf' && noPdf}
                onChange={() => setFormat(option)}
              />
              <span className="export-format-icon" aria-hidden="true">
                <Icon size={20} />
              </span>
              <span className="export-format-text">
                <span className="export-format-name">{t(`exports.${option}`)}</span>
                <span className="export-format-body">{t(`exports.${option}Body`)}</span>
              </span>
            </label>
          );
        })}
      </fieldset>
      <PdfSupportNotice support={support} format={format} testId={`${testId}-support`} />
      {format === 'pdf' ? (
        <Checkbox
          label={t('exports.pdfA')}
          disabled={support?.pdfA === false}
          checked={pdfA && support?.pdfA !== false}
          onChange={(event) => setPdfA(event.target.checked)}
          className="export-pdfa"
          testId={`${testId}-pdfa`}
        />
      ) : null}
      {format === 'pdf' ? (
        <Checkbox
          label={t('exports.pdfChanges')}
          checked={changes}
          onChange={(event) => setChanges(event.target.checked)}
          className="export-pdfa"
          testId={`${testId}-changes`}
        />
      ) : null}
      {format === 'pdf' ? (
        <Checkbox
          label={t('exports.pdfComments')}
          checked={comments}
          onChange={(event) => setComments(event.target.checked)}
          className="export-pdfa"
          testId={`${testId}-comments`}
        />
      ) : null}
      {needsProjects ? (
        <ProjectChooser
          chosen={chosen}
          onChange={(next) => {
            setChosen(next);
            setMissingProject(false);
          }}
          error={missingProject ? t('exports.chooseProject') : undefined}
          testId={`${testId}-projects`}
        />
      ) : null}
      <DateRangeField
        {...range}
        onChange={(patch) => setRange((current) => ({ ...current, ...patch }))}
        error={rangeError}
        labels={{
          legend: format === 'auditCsv' ? t('exports.rangeRecords') : t('exports.rangeNotes'),
          start: t('exports.from'),
          end: t('exports.to'),
        }}
        className="export-range"
        testId={`${testId}-range`}
      />
      <div className="export-form-actions">
        <Button type="submit" variant="primary" icon={<DownloadIcon size={16} />} loading={busy} data-testid={`${testId}-start`}>
          {projectNo !== undefined ? t('exports.startProject') : t('exports.start')}
        </Button>
      </div>
    </form>
  );
}

interface ProjectChooserProps {
  chosen: Chosen[];
  onChange(next: Chosen[]): void;
  error: string | undefined;
  testId: string;
}

/** Finds projects by title (the caller's visible ones: the server filters) and keeps the chosen ones as chips. */
function ProjectChooser({ chosen, onChange, error, testId }: ProjectChooserProps) {
  const { t } = useTranslation('audit');
  const language = currentLanguage();
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<ProjectRow[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const search = async () => {
    try {
      const answer = await call(api.projects.list, { type: 'title', value: query.trim(), page: 1, pageSize: 10 });
      setFound(answer.list);
      setFailure(null);
    } catch (problem) {
      setFailure(apiErrorText(problem, language));
    }
  };
  const toggle = (project: Chosen) =>
    onChange(
      chosen.some((p) => p.no === project.no)
        ? chosen.filter((p) => p.no !== project.no)
        : [...chosen, { no: project.no, title: project.title }].slice(0, EXPORT_LIMITS.projectsPerRequest),
    );

  return (
    <fieldset className={`export-projects${error ? ' field-invalid' : ''}`} data-testid={testId}>
      <legend className="field-label">{t('exports.projects')}</legend>
      <div className="export-project-search">
        <input
          className="input"
          type="search"
          value={query}
          placeholder={t('exports.projectSearch')}
          aria-label={t('exports.projectSearch')}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              void search();
            }
          }}
          data-testid={`${testId}-search`}
        />
        <Button variant="secondary" icon={<SearchIcon size={15} />} onClick={() => void search()} data-testid={`${testId}-find`}>
          {t('exports.projectSearchAction')}
        </Button>
      </div>
      {failure ? <p className="field-error">{failure}</p> : null}
      {found ? (
        found.length ? (
          <ul className="export-project-results" data-testid={`${testId}-results`}>
            {found.map((project) => (
              <li key={project.no}>
                <label className="export-project-option">
                  <input
                    type="checkbox"
                    checked={chosen.some((p) => p.no === project.no)}
                    onChange={() => toggle(project)}
                    data-testid={`${testId}-option-${project.no}`}
                  />
                  <span>{project.title}</span>
                  <span className="cell-muted">{project.leaderName}</span>
                </label>
              </li>
            ))}
          </ul>
        ) : (
          <p className="cell-muted">{t('exports.noProjectFound')}</p>
        )
      ) : null}
      {chosen.length ? (
        <div className="export-chosen">
          <span className="cell-muted" data-testid={`${testId}-count`}>
            {t('exports.selected', { count: chosen.length })}
          </span>
          <ul className="chip-list">
            {chosen.map((project) => (
              <li key={project.no} className="chip">
                <span className="chip-name">{project.title}</span>
                <button
                  type="button"
                  className="chip-remove"
                  aria-label={t('exports.remove', { title: project.title })}
                  onClick={() => toggle(project)}
                >
                  <CloseIcon size={12} />
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {error ? (
        <p className="field-error" role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
