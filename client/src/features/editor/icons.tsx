import { Icon, type IconProps } from '../../ui/icons';

/** The editor's toolbar icons (24px grid, stroke in currentColor), drawn to match ui/icons. */

export const BoldIcon = (p: IconProps) => (
  <Icon {...p} strokeWidth={2.3}>
    <path d="M7 5h6a3.5 3.5 0 0 1 0 7H7zM7 12h7a3.5 3.5 0 0 1 0 7H7z" />
  </Icon>
);
export const ItalicIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M10 5h8M6 19h8M14 5l-4 14" />
  </Icon>
);
export const UnderlineIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M7 4v7a5 5 0 0 0 10 0V4M5 20h14" />
  </Icon>
);
export const StrikeIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 12h16M16.5 7.5C16 5.8 14.3 4.8 12 4.8c-2.7 0-4.5 1.4-4.5 3.3 0 1.1.6 2 1.8 2.6M8 16.3c.6 1.8 2.2 2.9 4.3 2.9 2.8 0 4.7-1.4 4.7-3.4 0-.7-.2-1.3-.6-1.8" />
  </Icon>
);
export const ListIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M9 6h11M9 12h11M9 18h11" />
    <circle cx="4.5" cy="6" r="1" fill="currentColor" />
    <circle cx="4.5" cy="12" r="1" fill="currentColor" />
    <circle cx="4.5" cy="18" r="1" fill="currentColor" />
  </Icon>
);
export const OrderedListIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M10 6h10M10 12h10M10 18h10M4 5l1.5-1v5M3.5 14.5a1.5 1.5 0 0 1 3 .3c0 .9-3 2.2-3 3.7h3" />
  </Icon>
);
export const UndoIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M9 14 4 9l5-5" />
    <path d="M4 9h10.5a5.5 5.5 0 0 1 0 11H11" />
  </Icon>
);
export const RedoIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m15 14 5-5-5-5" />
    <path d="M20 9H9.5a5.5 5.5 0 0 0 0 11H13" />
  </Icon>
);
export const TableIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
    <path d="M3.5 9.5h17M3.5 14.5h17M9.5 4.5v15M15 4.5v15" />
  </Icon>
);
export const ChartIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4 20h16M7 16v-5M12 16V7M17 16v-8" />
  </Icon>
);
export const ImageIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="4.5" width="17" height="15" rx="2.5" />
    <circle cx="9" cy="10" r="1.8" />
    <path d="m20.5 15.5-4.5-4.5-8.5 8.5" />
  </Icon>
);
export const PaperclipIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m20 11.5-7.8 7.8a4.9 4.9 0 0 1-7-7l8.2-8.2a3.3 3.3 0 0 1 4.6 4.6l-8.2 8.2a1.6 1.6 0 0 1-2.3-2.3l7.5-7.5" />
  </Icon>
);
export const DateIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="5" width="17" height="15" rx="2.5" />
    <path d="M3.5 10h17M8 3v4M16 3v4M8 14h2M12 14h2M8 17h2" />
  </Icon>
);
export const PaletteIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M12 3.5a8.5 8.5 0 0 0 0 17c1.2 0 1.8-.8 1.8-1.7 0-1.2-1-1.6-1-2.6 0-1 .8-1.7 1.8-1.7h2A3.9 3.9 0 0 0 20.5 10.6C20.5 6.6 16.7 3.5 12 3.5z" />
    <circle cx="7.5" cy="11" r="1" fill="currentColor" />
    <circle cx="10" cy="7.3" r="1" fill="currentColor" />
    <circle cx="14.5" cy="7.3" r="1" fill="currentColor" />
  </Icon>
);
export const RowAddIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="4" width="17" height="9" rx="1.5" />
    <path d="M3.5 8.5h17M12 16v5M9.5 18.5h5" />
  </Icon>
);
export const ColumnAddIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="4" y="3.5" width="9" height="17" rx="1.5" />
    <path d="M8.5 3.5v17M16 12h5M18.5 9.5v5" />
  </Icon>
);
export const RowDeleteIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="4" width="17" height="9" rx="1.5" />
    <path d="M3.5 8.5h17M9.5 18.5h5" />
  </Icon>
);
export const ColumnDeleteIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="4" y="3.5" width="9" height="17" rx="1.5" />
    <path d="M8.5 3.5v17M16 12h5" />
  </Icon>
);
export const MergeIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="5" width="17" height="14" rx="2" />
    <path d="M7 12h3.5M17 12h-3.5M9 10l2 2-2 2M15 10l-2 2 2 2" />
  </Icon>
);
export const SplitIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="5" width="17" height="14" rx="2" />
    <path d="M12 5v14M6.5 12h3M17.5 12h-3" />
  </Icon>
);
export const ListBoxIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="5" width="17" height="14" rx="2" />
    <path d="m14.5 10.5 2 2 2-2M6.5 12.5h5" />
  </Icon>
);
export const TrashIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M4.5 7h15M10 11v6M14 11v6M6.5 7l1 12a1.5 1.5 0 0 0 1.5 1.4h6a1.5 1.5 0 0 0 1.5-1.4l1-12M9.5 7V5a1 1 0 0 1 1-1h3a1 1 0 0 1 1 1v2" />
  </Icon>
);
export const SaveIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M5 4h11l3.5 3.5V18a2 2 0 0 1-2 2h-11a2 2 0 0 1-2-2V5.5A1.5 1.5 0 0 1 5 4z" />
    <path d="M8 4v5h7V4M8 20v-6h8v6" />
  </Icon>
);
export const NoteIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6.5 3.5h8l4 4v12a1.5 1.5 0 0 1-1.5 1.5H6.5A1.5 1.5 0 0 1 5 19.5v-14.5a1.5 1.5 0 0 1 1.5-1.5z" />
    <path d="M14.5 3.5v4h4M8.5 12h7M8.5 15.5h7M8.5 8.5h3" />
  </Icon>
);
/** A clock turning back: a record's earlier versions. */
export const HistoryIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M3.5 12a8.5 8.5 0 1 0 2.5-6" />
    <path d="M3 3.5V8h4.5" />
    <path d="M12 7.5V12l3 2" />
  </Icon>
);
