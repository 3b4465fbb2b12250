import { Icon, type IconProps } from '../../ui/icons';

/** The bell of notifications (the notebook's line icon frame). */
export const BellIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M6 9.5a6 6 0 0 1 12 0c0 4.2 1.3 6.1 2.2 7a.6.6 0 0 1-.4 1H4.2a.6.6 0 0 1-.4-1c.9-.9 2.2-2.8 2.2-7z" />
    <path d="M10 20.5a2.2 2.2 0 0 0 4 0" />
  </Icon>
);
