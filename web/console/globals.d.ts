// The two libraries the page loads as classic scripts before the console's modules (page.html): their globals,
// typed by the packages' own declarations. Only for the type check; not served.
import type uPlotClass from 'uplot';
import type markdownIt from 'markdown-it';

declare global {
  interface Window {
    uPlot: typeof uPlotClass;
    markdownit: typeof markdownIt;
  }
}
