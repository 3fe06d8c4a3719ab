/// <reference lib="dom" />
import { el } from './dom.ts';
import { routeOf, type Route, type View } from './view.ts';
import { approvalsPage } from './views/approvals.ts';
import { investigationPage } from './views/investigation.ts';
import { investigationsList } from './views/investigations-list.ts';

const main = document.getElementById('main')!;
let current: View | undefined;

const render = (route: Route): View => {
  switch (route.name) {
    case 'investigations':
      return investigationsList(main, route);
    case 'investigation':
      return investigationPage(main, route);
    case 'approvals':
      return approvalsPage(main, route);
    case 'not-found':
      main.replaceChildren(el('h1', { tabindex: -1 }, 'Not found'), el('p', {}, `Nothing is at ${route.hash}. `, el('a', { href: '#/' }, 'See the investigations.')));
      return { dispose: () => {} };
  }
};

const navigate = () => {
  const route = routeOf(location.hash);
  if (current?.update?.(route)) return;
  current?.dispose();
  current = render(route);
  document.querySelectorAll<HTMLAnchorElement>('header nav a').forEach((link) => {
    const section = link.getAttribute('href') === '#/approvals' ? 'approvals' : 'investigations';
    const active = section === route.name || (section === 'investigations' && route.name === 'investigation');
    if (active) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  });
  // A new view is announced by moving focus to its heading, as a page load would.
  main.querySelector<HTMLElement>('h1')?.focus();
  document.title = `${main.querySelector('h1')?.textContent ?? 'sre-agent'} · sre-agent console`;
};

// The skip link targets an element, not a route.
document.querySelector('.skip-link')?.addEventListener('click', (event) => {
  event.preventDefault();
  main.focus();
});
addEventListener('hashchange', navigate);
navigate();
