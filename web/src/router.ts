// The page shown, from the address's fragment (`#/sessions`): bookmarkable, and back/forward work.
// The token's own fragment (`#token=…`) is removed before this is read. A page may keep its own
// state after a `?` (`#/sessions?q=api&sort=-sizeBytes`): read by pageParams, written by setPageParams.
import { signal } from "@preact/signals";

export const PAGES = ["overview", "sessions", "trash", "policy", "activity"] as const;
export type Page = (typeof PAGES)[number];

const fromHash = (): Page => {
  const name = location.hash.replace(/^#\/?/, "").split(/[?&]/)[0] ?? "";
  return (PAGES as readonly string[]).includes(name) ? (name as Page) : "overview";
};

export const currentPage = signal<Page>(fromHash());
addEventListener("hashchange", () => (currentPage.value = fromHash()));

/**
 * Shows `page`. Already there, nothing changes: a new fragment would drop the page's own parameters
 * and be a navigation, whose popstate reads as Back to an open dialog (the drawer's "Select the
 * family" closed the drawer that way).
 */
export function go(page: Page) {
  if (currentPage.value === page && fromHash() === page) return;
  location.hash = `#/${page}`;
}

/** The current page's own parameters (after the `?` of the fragment). */
export function pageParams(): URLSearchParams {
  const hash = location.hash;
  const at = hash.indexOf("?");
  return new URLSearchParams(at < 0 ? "" : hash.slice(at + 1));
}

/**
 * Writes the page's parameters in place: no history entry per keystroke, and no hashchange. The
 * history entry's state is kept (an open dialog's Back entry lives there).
 */
export function setPageParams(page: Page, params: URLSearchParams) {
  const query = params.toString();
  const hash = `#/${page}${query ? `?${query}` : ""}`;
  if (hash !== location.hash) history.replaceState(history.state, "", hash);
}
