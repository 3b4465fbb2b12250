/**
 * The dashboard's counts. A count is null while the feature it counts is not part of this build, so the
 * screen can say so instead of showing a made-up zero.
 */
export interface DashboardCounts {
  ongoing: number;
  closable: number;
  closed: number;
  templates: number | null;
  schemas: number | null;
  dropboxes: number | null;
}
