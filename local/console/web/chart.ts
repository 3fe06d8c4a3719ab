/// <reference lib="dom" />
import uPlot from 'uplot';
import type { ChartData } from './chart-data.ts';
import { el } from './dom.ts';
import { formatTime } from './format.ts';

const HEIGHT = 280;

const utcClock = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(11, 16);

/**
 * Vertical markers: the onset as a solid line, each change as a dotted line with its number. The
 * figure's caption and list say the same in words, so nothing depends on seeing the canvas.
 */
const markers = (data: ChartData) => (chart: uPlot) => {
  const { ctx } = chart;
  const { top, height } = chart.bbox;
  const line = (at: number, dash: number[], label: string, row: number) => {
    const x = Math.round(chart.valToPos(at, 'x', true));
    ctx.save();
    ctx.strokeStyle = '#222';
    ctx.fillStyle = '#222';
    ctx.lineWidth = 2 * devicePixelRatio;
    ctx.setLineDash(dash.map((length) => length * devicePixelRatio));
    ctx.beginPath();
    ctx.moveTo(x, top);
    ctx.lineTo(x, top + height);
    ctx.stroke();
    ctx.font = `${12 * devicePixelRatio}px system-ui, sans-serif`;
    ctx.fillText(label, x + 4 * devicePixelRatio, top + 14 * (row + 1) * devicePixelRatio);
    ctx.restore();
  };
  // Labels step down a row each, so markers close in time stay readable.
  data.changes.forEach((change, index) => line(change.at, [2, 4], `change ${index + 1}`, (index + 1) % 4));
  if (data.onset !== null) line(data.onset, [], 'onset', 0);
};

/** The alarm's metric as a uPlot chart in a figure, with the threshold, onset and changes marked and described. */
export const metricChart = (data: ChartData, describedBy: HTMLElement): { figure: HTMLElement; dispose: () => void } => {
  const plotArea = el('div', { class: 'chart', role: 'img', 'aria-label': `Chart of ${data.title}`, 'aria-describedby': describedBy.id });
  const figure = el('figure', {}, plotArea, describedBy);
  const width = () => Math.max(320, Math.min(1100, (figure.parentElement?.clientWidth ?? 800) - 8));
  const threshold = data.threshold;
  const series: uPlot.Series[] = [
    {},
    { label: data.title, stroke: '#1f5fa8', width: 2, points: { show: false } },
    ...(threshold === null ? [] : [{ label: `threshold ${threshold}`, stroke: '#b3261e', width: 2, dash: [8, 6], points: { show: false } }]),
  ];
  const values: uPlot.AlignedData = [data.times, data.values, ...(threshold === null ? [] : [data.times.map(() => threshold)])];
  let chart: uPlot | undefined;
  // uPlot measures its container, so it is built once the figure is in the document.
  const build = () => {
    chart = new uPlot(
      {
        width: width(),
        height: HEIGHT,
        series,
        scales: { x: { time: true } },
        axes: [{ label: 'UTC', values: (_, splits) => splits.map(utcClock) }, { label: data.unit ?? undefined }],
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        hooks: { draw: [markers(data)] },
      },
      values,
      plotArea,
    );
  };
  const onResize = () => chart?.setSize({ width: width(), height: HEIGHT });
  queueMicrotask(build);
  addEventListener('resize', onResize);
  return {
    figure,
    dispose: () => {
      removeEventListener('resize', onResize);
      chart?.destroy();
    },
  };
};

/** The caption: what the chart shows and where its data come from, in words. */
export const chartCaption = (data: ChartData, id: string, eventLink: (seq: number, label: string) => Node): HTMLElement => {
  const caption = el(
    'figcaption',
    { id },
    el('p', {}, `${data.title}${data.unit ? ` in ${data.unit}` : ''}, ${data.values.length} points from ${formatTime(new Date(data.times[0]! * 1000).toISOString())} to ${formatTime(new Date(data.times.at(-1)! * 1000).toISOString())}, maximum ${Math.max(...data.values)}. `,
      data.threshold === null ? 'No threshold. ' : `Threshold ${data.threshold} (dashed line). `,
      data.onset === null ? '' : `Alarm onset ${formatTime(new Date(data.onset * 1000).toISOString())} (solid vertical line). `,
      'Source: ',
      data.seq === null ? data.source : eventLink(data.seq, data.source),
      '.'),
  );
  if (data.changes.length > 0) {
    caption.append(
      el('p', {}, 'Changes (dotted vertical lines):'),
      el('ol', {}, ...data.changes.map((change) => el('li', {}, `${formatTime(new Date(change.at * 1000).toISOString())}: `, eventLink(change.seq, change.label)))),
    );
  }
  return caption;
};
