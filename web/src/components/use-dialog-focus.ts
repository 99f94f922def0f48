// Keyboard focus for the dashboard's dialogs (detail drawer, clean wizard, purge confirmation):
// focus moves into the dialog when it opens, Tab and Shift+Tab stay inside it, Escape closes it
// (when the dialog allows), and focus goes back to what opened it. Only the topmost open dialog
// answers the keyboard, so a dialog over another one closes first.
import type { RefObject } from "preact";
import { useEffect, useRef } from "preact/hooks";

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled]):not([type='hidden'])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  "summary",
  "[tabindex]:not([tabindex='-1'])",
].join(",");

/** What can take focus inside `container`, in tab order (hidden elements left out). */
export function focusableIn(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.getClientRects().length > 0 && !el.closest("[inert]"),
  );
}

export interface DialogFocusOptions {
  /** Called on Escape; undefined: Escape does nothing (e.g. the wizard's result step). */
  onEscape?: (() => void) | undefined;
  /** A selector inside the dialog to focus first. Default: the dialog itself (its title is read). */
  initialFocus?: string;
}

/** The open dialogs, innermost last: only that one handles Tab and Escape. */
const open: Array<RefObject<HTMLElement | null>> = [];

export function useDialogFocus(dialog: RefObject<HTMLElement | null>, options: DialogFocusOptions = {}) {
  // The latest options without re-running the effect (that would move focus again).
  const latest = useRef(options);
  latest.current = options;

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : undefined;
    const container = dialog.current;
    if (!container) return;
    open.push(dialog);
    if (!container.hasAttribute("tabindex")) container.tabIndex = -1;
    const first = latest.current.initialFocus
      ? container.querySelector<HTMLElement>(latest.current.initialFocus)
      : null;
    (first ?? container).focus();

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
      open.splice(open.lastIndexOf(dialog), 1);
      // Back to what opened it, when it is still there and can take focus.
      if (opener?.isConnected) opener.focus();
    };
  }, [dialog]);
}
