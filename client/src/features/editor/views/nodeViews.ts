import { ReactNodeViewRenderer } from '@tiptap/react';
import type { NodeViews } from '../schema';
import { ChartView } from './ChartView';
import { DateView } from './DateView';
import { FileView } from './FileView';
import { ImageView } from './ImageView';
import { SchemaBlockView } from './SchemaBlockView';
import { MentionView } from '../../mentions/MentionView';

/** The React views of the atom nodes (and of mentions inside text), for the live editor and read-only documents alike. */
export const NODE_VIEWS: NodeViews = {
  chart: (base) => base.extend({ addNodeView: () => ReactNodeViewRenderer(ChartView) }),
  image: (base) => base.extend({ addNodeView: () => ReactNodeViewRenderer(ImageView) }),
  file: (base) => base.extend({ addNodeView: () => ReactNodeViewRenderer(FileView) }),
  date: (base) => base.extend({ addNodeView: () => ReactNodeViewRenderer(DateView) }),
  schemaBlock: (base) => base.extend({ addNodeView: () => ReactNodeViewRenderer(SchemaBlockView) }),
  mention: (base) => base.extend({ addNodeView: () => ReactNodeViewRenderer(MentionView, { as: 'span' }) }),
};
