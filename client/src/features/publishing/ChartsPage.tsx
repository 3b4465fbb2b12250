import { useTranslation } from 'react-i18next';
import { CHART_TYPES, type ChartType } from '@eln/shared';
import type { ChartData } from '@eln/shared/editor';
import { PageFrame } from '../../ui/PageFrame';
import { SparkleIcon } from '../../ui/icons';
import { ChartCanvas } from '../editor/views/ChartCanvas';

/** A week of absorbance readings of three buffers: the table every chart of the page is drawn from. */
const READINGS: ChartData = {
  labels: ['Day 1', 'Day 2', 'Day 3', 'Day 4', 'Day 5', 'Day 6', 'Day 7'],
  series: [
    { name: 'Tris 50 mM', values: [0.42, 0.44, 0.47, 0.49, 0.52, 0.55, 0.57] },
    { name: 'HEPES 25 mM', values: [0.38, 0.39, 0.39, 0.41, 0.42, 0.42, 0.43] },
    { name: 'PBS', values: [0.35, 0.37, 0.41, 0.46, 0.5, 0.56, 0.61] },
  ],
};

/** Pie and doughnut charts show one series: the first. */
const oneSeries = (data: ChartData): ChartData => ({ labels: data.labels, series: data.series.slice(0, 1) });

/** `/publishing/chart`: every chart type a note can hold, drawn by the note's own chart code, with its data. */
export function ChartsPage() {
  const { t } = useTranslation();
  const { t: te } = useTranslation('editor');
  const dataOf = (type: ChartType) => (type === 'pie' || type === 'doughnut' ? oneSeries(READINGS) : READINGS);
  return (
    <PageFrame
      testId="chart-page"
      title={t('publishing.pages.chart')}
      description={t('publishing.chart.description')}
      icon={<SparkleIcon size={20} />}
    >
      <div className="style-charts">
        {CHART_TYPES.map((type) => (
          <figure key={type} className="card note-chart style-chart" data-testid={`style-chart-${type}`}>
            <p className="note-chart-name">{te(`chart.types.${type}`)}</p>
            <ChartCanvas
              type={type}
              data={dataOf(type)}
              axes={{ xLabel: t('publishing.chart.xLabel'), yLabel: t('publishing.chart.yLabel') }}
              label={te('chart.aria', { type: te(`chart.types.${type}`), name: t('publishing.chart.name') })}
            />
          </figure>
        ))}
      </div>
      <section className="card style-section" aria-labelledby="chart-data-title">
        <h2 className="style-section-title" id="chart-data-title">
          {t('publishing.chart.data')}
        </h2>
        <table className="data-table" data-testid="style-chart-data">
          <thead>
            <tr>
              <th scope="col">{t('publishing.chart.xLabel')}</th>
              {READINGS.series.map((series) => (
                <th key={series.name} scope="col">
                  {series.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {READINGS.labels.map((label, row) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                {READINGS.series.map((series) => (
                  <td key={series.name}>{series.values[row]?.toFixed(2)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </PageFrame>
  );
}
