/// <reference lib="dom" />

const main = document.getElementById('main');
if (main) main.replaceChildren(Object.assign(document.createElement('p'), { textContent: 'sre-agent console' }));
