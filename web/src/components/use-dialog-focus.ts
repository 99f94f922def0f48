// Keyboard focus for the dashboard's dialogs (detail drawer, clean wizard, purge confirmation):
// focus moves into the dialog when it opens, Tab and Shift+Tab stay inside it, Escape closes it
// (when the dialog allows), and focus goes back to what opened it. Only the topmost open dialog
// answers the keyboard, so a dialog over another one closes first.
//
// Focus is never left on <body>: when the focused element inside vanishes (a step replaced, Undo
// done) the dialog itself takes it; when what opened the dialog is gone or disabled on closing (the
// selection cleared after a move), its nearest `data-focus-return` ancestor does, else <main>.
//
// A destructive button (class `danger`: Move to trash, Purge) is pressed only where it was aimed at.
// It never inherits focus: a focused control that becomes one (the wizard's Next re-rendered as Move
// to trash on the confirm step) hands focus to the dialog, whose title names the new step, so a
// second Enter meant for Next does nothing; a dialog never opens with its focus on one; and the
// second click of a double-click (aimed at what was there before) never presses one.
//
// Back closes the dialog as Escape does: opening pushes a history entry (same address), Back pops
// it, and closing otherwise goes back over it. Where Escape does nothing, Back does nothing either.
import type { RefObject } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type='hidden'])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "summary",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

/** The dashboard's destructive buttons: they move or delete sessions (styles.css draws them red). */
const DESTRUCTIVE = "button.danger";

const isDestructive = (el: Element | null): boolean => !!el?.matches(DESTRUCTIVE);

/** What can take focus inside `container`, in tab order (hidden elements left out). */
export function focusableIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.getClientRects().length > 0 && !el.closest("[inert]"),
  );
}

export interface DialogFocusOptions {
  /** Called on Escape; undefined: Escape does nothing (e.g. the wizard's result step). */
  onEscape?: (() => void) | undefined;
  /**
   * A selector inside the dialog to focus first. Default: the dialog itself (its title is read);
   * also when the selector names a destructive button (see above).
   */
  initialFocus?: string;
}

/** The open dialogs, innermost last: only that one handles Tab and Escape. */
const open: Array<RefObject<HTMLElement | null>> = [];

/** Marks the history entry a dialog pushed: its depth among the open dialogs. */
const HISTORY_KEY = "sessionRetentionDialog";
const depthOf = (state: unknown) =>
  typeof state === "object" && state !== null
    ? ((state as Record<string, unknown>)[HISTORY_KEY] as number)
    : 0;

const canTakeFocus = (el: HTMLElement | undefined): boolean =>
  !!el && el.isConnected && !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0;

/** Where focus goes when a dialog closes: what opened it, else its nearest return point, else <main>. */
function returnFocus(opener: HTMLElement | undefined) {
  if (opener && canTakeFocus(opener)) return opener.focus();
  const fallback =
    (opener?.isConnected ? opener.closest<HTMLElement>("[data-focus-return]") : null) ??
    document.querySelector<HTMLElement>("[data-focus-return]") ??
    document.querySelector<HTMLElement>("main");
  if (!fallback) return;
  if (!fallback.hasAttribute("tabindex")) fallback.tabIndex = -1;
  fallback.focus();
}

export function useDialogFocus(dialog: RefObject<HTMLElement | null>, options: DialogFocusOptions = {}) {
  // The latest options without re-running the effect (that would move focus again).
  const latest = useRef(options);
  latest.current = options;

  // A layout effect, not a plain one: it runs as the dialog enters the page, before it is painted.
  // Preact runs a plain effect after the next frame, and an Escape or Back pressed in between (a
  // quick user, a busy machine) found no listener and no history entry, and was lost.
  useLayoutEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    const container = dialog.current;
    if (!container) return;
    open.push(dialog);
    const depth = open.length;
    history.pushState({ ...(history.state as object | null), [HISTORY_KEY]: depth }, "");
    const onPop = (event: PopStateEvent) => {
      if (depthOf(event.state) >= depth) return; // a dialog above this one went
      const onEscape = latest.current.onEscape;
      if (onEscape) onEscape();
      // Not closable now (a move running, a result to read): stay, and the entry comes back.
      else history.pushState({ ...(history.state as object | null), [HISTORY_KEY]: depth }, "");
    };
    addEventListener("popstate", onPop);
    // Whether the focused element was destructive when it got focus: focus given to one (Tab, a
    // click) is aimed at it; focus it finds itself on after a re-render is not.
    let focused: { el: EventTarget | null; destructive: boolean } = { el: null, destructive: false };
    const onFocusIn = (event: FocusEvent) => {
      focused = { el: event.target, destructive: isDestructive(event.target as Element) };
    };
    container.addEventListener("focusin", onFocusIn);
    // What had focus was removed (a step replaced by the next): the dialog takes it, never <body>.
    // What had focus became destructive while focused (same element, new role): the dialog takes it.
    const keepFocus = new MutationObserver(() => {
      if (open.at(-1) !== dialog) return;
      const active = document.activeElement;
      if (!active || active === document.body) container.focus();
      else if (
        isDestructive(active) &&
        container.contains(active) &&
        !(focused.el === active && focused.destructive)
      )
        container.focus();
    });
    keepFocus.observe(container, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ["class"],
    });
    // The second click of a double-click was aimed at what was there at the first (Next): a
    // destructive button that took its place neither takes focus from it nor is pressed by it.
    // (`detail` counts the clicks of one double- or triple-click; a keyboard's click has 0.)
    const onSecondClick = (event: MouseEvent) => {
      const button = (event.target as Element | null)?.closest?.(DESTRUCTIVE);
      if (event.detail > 1 && button && container.contains(button)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    container.addEventListener("mousedown", onSecondClick, true);
    container.addEventListener("click", onSecondClick, true);
    if (!container.hasAttribute("tabindex")) container.tabIndex = -1;
    const first = latest.current.initialFocus
      ? container.querySelector<HTMLElement>(latest.current.initialFocus)
      : null;
    (first && !isDestructive(first) ? first : container).focus();

    const onKey = (event: KeyboardEvent) => {
      if (open.at(-1) !== dialog) return;
      if (event.key === "Escape") {
        const onEscape = latest.current.onEscape;
        if (onEscape) {
          event.preventDefault();
          onEscape();
        }
        return;
      }
      if (event.key !== "Tab") return;
      const focusable = focusableIn(container);
      const active = document.activeElement;
      if (focusable.length === 0) {
        event.preventDefault();
        container.focus();
        return;
      }
      const firstEl = focusable[0]!;
      const lastEl = focusable.at(-1)!;
      const inside = active instanceof Node && container.contains(active);
      if (event.shiftKey && (!inside || active === firstEl || active === container)) {
        event.preventDefault();
        lastEl.focus();
      } else if (!event.shiftKey && (!inside || active === lastEl)) {
        event.preventDefault();
        firstEl.focus();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      removeEventListener("popstate", onPop);
      container.removeEventListener("focusin", onFocusIn);
      container.removeEventListener("mousedown", onSecondClick, true);
      container.removeEventListener("click", onSecondClick, true);
      keepFocus.disconnect();
      open.splice(open.lastIndexOf(dialog), 1);
      // Closed otherwise than by Back: its history entry goes too.
      if (depthOf(history.state) === depth) history.back();
      // Back to what opened it — after this render, which may disable it (a selection cleared).
      setTimeout(() => {
        const active = document.activeElement;
        if (!active || active === document.body || !active.isConnected) returnFocus(opener);
      });
    };
  }, [dialog]);
}
