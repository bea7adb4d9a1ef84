import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { installDialogFocusReturn } from '../dialog-focus';

const tick = () => new Promise((r) => setTimeout(r, 10));
let uninstall: () => void;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, parent: Element = document.body) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  parent.appendChild(e);
  return e;
}

/** A dialog as a portal puts it at the end of the page, with a field that takes the focus. */
function openDialog(role = 'dialog') {
  const portal = el('div');
  const dialog = el('div', { role }, portal);
  const field = el('input', {}, dialog);
  field.focus();
  return { portal, field };
}

beforeEach(() => {
  document.body.innerHTML = '';
  uninstall = installDialogFocusReturn();
});
afterEach(() => uninstall());

describe('a dialog closed gives the focus back to what opened it', () => {
  it('when the dialog leaves the page (mounted only while open), the focus returns to the button that opened it', async () => {
    const opener = el('button');
    el('button');
    opener.focus();
    const { portal } = openDialog();
    portal.remove();
    await tick();
    expect(document.activeElement).toBe(opener);
  });

  it("a dialog opened from a menu's item gives the focus to the menu's button", async () => {
    const trigger = el('button');
    trigger.focus();
    const menu = el('div', { role: 'menu' });
    const item = el('div', { role: 'menuitem', tabindex: '-1' }, menu);
    item.focus();
    menu.remove();
    trigger.focus(); // the menu gives it back as it closes
    const { portal } = openDialog('alertdialog');
    portal.remove();
    await tick();
    expect(document.activeElement).toBe(trigger);
  });

  it('a dialog opened from a dialog gives the focus back to the first one, and that one to the page', async () => {
    const opener = el('button');
    opener.focus();
    const first = openDialog();
    const inner = el('button', {}, first.field.parentElement ?? document.body);
    inner.focus();
    const second = openDialog('alertdialog');
    second.portal.remove();
    await tick();
    expect(document.activeElement).toBe(inner);
    first.portal.remove();
    await tick();
    expect(document.activeElement).toBe(opener);
  });

  it('leaves the focus alone when the dialog put it somewhere already, or its opener is gone', async () => {
    const opener = el('button');
    const elsewhere = el('input');
    opener.focus();
    const a = openDialog();
    elsewhere.focus();
    a.portal.remove();
    await tick();
    expect(document.activeElement).toBe(elsewhere);

    opener.focus();
    const b = openDialog();
    opener.remove();
    b.portal.remove();
    await tick();
    expect(document.activeElement).toBe(document.body);
  });
});
