/**
 * The scale bench's plot: one small chart per figure, panes on the x axis
 * (logarithmic, 10 to 1,000), Skiff's line beside tmux's where tmux has the
 * figure, drawn as a self-contained SVG that a Markdown page shows.
 *
 * @module
 */

/** One size's figures (see `scale.ts`). */
export interface ScalePoint {
  panes: number;
  memory: { skiff: number; tmux: number };
  ls: { skiff: number; tmux: number };
  echo: { skiff: number; tmux: number };
  dash: number;
  watcher: number;
  restore: number;
  upgrade: number;
  upgradeFlooding: number;
}

interface Chart {
  title: string;
  unit: string;
  skiff: (p: ScalePoint) => number;
  /** A second Skiff line (dashed), where one figure has two cases. */
  also?: (p: ScalePoint) => number;
  tmux?: (p: ScalePoint) => number;
  target?: number;
}

const CHARTS: Chart[] = [
  {
    title: "memory per idle pane",
    unit: "KB",
    skiff: (p) => p.memory.skiff,
    tmux: (p) => p.memory.tmux,
    target: 100,
  },
  { title: "ls, 5% flooding", unit: "ms", skiff: (p) => p.ls.skiff, tmux: (p) => p.ls.tmux },
  {
    title: "a quiet pane's echo, 5% flooding",
    unit: "ms",
    skiff: (p) => p.echo.skiff,
    tmux: (p) => p.echo.tmux,
  },
  { title: "dashboard's first frame", unit: "ms", skiff: (p) => p.dash, target: 300 },
  { title: "kill -9 to every pane back", unit: "ms", skiff: (p) => p.restore, target: 10_000 },
  {
    title: "daemon upgrade (dashed: 5% flooding)",
    unit: "ms",
    skiff: (p) => p.upgrade,
    also: (p) => p.upgradeFlooding,
    target: 5000,
  },
  { title: "watcher: turn end to line", unit: "ms", skiff: (p) => p.watcher, target: 1000 },
];

const WIDTH = 300;
const HEIGHT = 190;
const PAD = { left: 48, right: 12, top: 26, bottom: 30 };
const COLUMNS = 2;
const SKIFF = "#0f8f84";
const TMUX = "#9a6700";

function escape(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;");
}

function label(n: number): string {
  return n >= 1000 ? `${+(n / 1000).toFixed(1)}k` : n >= 10 ? n.toFixed(0) : n.toFixed(1);
}

function chartSvg(chart: Chart, points: ScalePoint[], x0: number, y0: number): string {
  const xs = points.map((p) => p.panes);
  const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
  const values = points.flatMap((p) => [
    chart.skiff(p),
    ...(chart.also ? [chart.also(p)] : []),
    ...(chart.tmux ? [chart.tmux(p)] : []),
  ]);
  const top = Math.max(...values, chart.target ?? 0) * 1.1 || 1;
  const w = WIDTH - PAD.left - PAD.right;
  const h = HEIGHT - PAD.top - PAD.bottom;
  const x = (n: number) =>
    x0 + PAD.left + (hi === lo ? w / 2 : (Math.log(n) - Math.log(lo)) / Math.log(hi / lo) * w);
  const y = (v: number) => y0 + PAD.top + h - (v / top) * h;
  const line = (value: (p: ScalePoint) => number, color: string, dash = "") =>
    `<polyline fill="none" stroke="${color}" stroke-width="2"${dash} points="${
      points.map((p) => `${x(p.panes).toFixed(1)},${y(value(p)).toFixed(1)}`).join(" ")
    }"/>` +
    points.map((p) =>
      `<circle cx="${x(p.panes).toFixed(1)}" cy="${
        y(value(p)).toFixed(1)
      }" r="2.5" fill="${color}"/>`
    ).join("");
  const parts = [
    `<text x="${x0 + PAD.left}" y="${y0 + 16}" font-weight="bold">${
      escape(chart.title)
    } (${chart.unit})</text>`,
    `<line x1="${x0 + PAD.left}" y1="${y0 + PAD.top + h}" x2="${x0 + PAD.left + w}" y2="${
      y0 + PAD.top + h
    }" stroke="#888"/>`,
    `<line x1="${x0 + PAD.left}" y1="${y0 + PAD.top}" x2="${x0 + PAD.left}" y2="${
      y0 + PAD.top + h
    }" stroke="#888"/>`,
  ];
  for (const n of xs) {
    parts.push(
      `<text x="${x(n).toFixed(1)}" y="${y0 + HEIGHT - 12}" text-anchor="middle">${n}</text>`,
    );
  }
  for (const v of [0, top / 2, top / 1.1]) {
    parts.push(
      `<text x="${x0 + PAD.left - 4}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${
        label(v)
      }</text>`,
    );
  }
  if (chart.target !== undefined) {
    parts.push(
      `<line x1="${x0 + PAD.left}" y1="${y(chart.target).toFixed(1)}" x2="${x0 + PAD.left + w}" ` +
        `y2="${y(chart.target).toFixed(1)}" stroke="#c0392b" stroke-dasharray="4 3"/>`,
    );
  }
  if (chart.tmux) parts.push(line(chart.tmux, TMUX));
  if (chart.also) parts.push(line(chart.also, SKIFF, ' stroke-dasharray="5 3"'));
  parts.push(line(chart.skiff, SKIFF));
  return parts.join("\n");
}

/** The plot of `points` as an SVG document. */
export function renderScaleSvg(points: ScalePoint[]): string {
  const rows = Math.ceil(CHARTS.length / COLUMNS);
  const width = WIDTH * COLUMNS;
  const height = HEIGHT * rows + 30;
  const charts = CHARTS.map((chart, i) =>
    chartSvg(chart, points, (i % COLUMNS) * WIDTH, Math.floor(i / COLUMNS) * HEIGHT + 30)
  );
  const legend = `<text x="10" y="18"><tspan fill="${SKIFF}" font-weight="bold">— Skiff</tspan>` +
    `  <tspan fill="${TMUX}" font-weight="bold">— tmux</tspan>` +
    `  <tspan fill="#c0392b">- - target</tspan>  · panes on a log scale</text>`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    legend,
    ...charts,
    "</svg>",
    "",
  ].join("\n");
}
