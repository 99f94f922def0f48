// The page shown, from the address's fragment (`#/sessions`): bookmarkable, and back/forward work.
// The token's own fragment (`#token=…`) is removed before this is read.
import { signal } from "@preact/signals";

export const PAGES = ["overview", "sessions", "trash", "policy", "activity"] as const;
export type Page = (typeof PAGES)[number];

const fromHash = (): Page => {
  const name = location.hash.replace(/^#\/?/, "").split("&")[0] ?? "";
  return (PAGES as readonly string[]).includes(name) ? (name as Page) : "overview";
};

export const currentPage = signal<Page>(fromHash());
addEventListener("hashchange", () => (currentPage.value = fromHash()));

export function go(page: Page) {
  location.hash = `#/${page}`;
}
