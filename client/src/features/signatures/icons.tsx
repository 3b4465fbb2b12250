import { Icon, type IconProps } from '../../ui/icons';

/** Icons of electronic signatures (24px grid, stroke in currentColor), drawn to match ui/icons. */

/** A pen over a signature line: signing. */
export const SignatureIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M14.5 4.5 19.5 9.5 10 19l-5.5 1 1-5.5z" />
    <path d="M12.5 6.5l5 5M3.5 21.5h17" />
  </Icon>
);
/** People with a pen: asking others to sign. */
export const RequestIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="9" cy="8" r="3.2" />
    <path d="M3.5 19.5c.5-3.2 2.7-5 5.5-5 1.3 0 2.4.4 3.3 1" />
    <path d="M18 12.5 20.5 15l-4.8 4.8-2.9.5.5-2.9z" />
  </Icon>
);
export const SignedIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="m5 12.5 4.5 4.5L19 7.5" />
  </Icon>
);
export const DeclinedIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M7 7l10 10M17 7 7 17" />
  </Icon>
);
/** A crossed-out circle: a request the project's close cancelled before it was answered. */
export const CancelledIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="8" />
    <path d="M6.5 17.5l11-11" />
  </Icon>
);
export const PendingIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="12" cy="12" r="8" />
    <path d="M12 7.5V12l3 2" />
  </Icon>
);
/** A broken chain link: content that no longer matches its signature. */
export const BrokenIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M9.5 14.5 7.3 16.7a3 3 0 0 1-4.2-4.2l2.2-2.2M14.5 9.5l2.2-2.2a3 3 0 0 1 4.2 4.2l-2.2 2.2" />
    <path d="M8 4v2.5M4 8h2.5M16 20v-2.5M20 16h-2.5" />
  </Icon>
);
