/**
 * Text styles for the renderers: ANSI colors when asked for, plain text otherwise. The caller
 * decides (a TTY, no `NO_COLOR`, no `--no-color`); renderers never look at the environment.
 */

/** Styling functions a renderer uses. */
export interface Style {
  color: boolean;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  bold(s: string): string;
  dim(s: string): string;
}

const wrap = (on: boolean, open: number, close: number) => (s: string) => (on && s !== '' ? `\u001b[${open}m${s}\u001b[${close}m` : s);

/** A style with or without ANSI colors. */
export function createStyle(color: boolean): Style {
  return {
    color,
    red: wrap(color, 31, 39),
    green: wrap(color, 32, 39),
    yellow: wrap(color, 33, 39),
    cyan: wrap(color, 36, 39),
    bold: wrap(color, 1, 22),
    dim: wrap(color, 2, 22),
  };
}

/** The plain style. */
export const plainStyle: Style = createStyle(false);
