// The dashboard's modal dialogs (detail drawer, clean wizard, purge confirmation) share this frame:
// the dialog role, aria-modal, its title and description, and the keyboard focus of useDialogFocus.
import type { ComponentChildren } from "preact";
import { useRef } from "preact/hooks";
import { type DialogFocusOptions, useDialogFocus } from "./use-dialog-focus.js";

interface DialogProps extends DialogFocusOptions {
  /** "alertdialog" for a confirmation that interrupts (purge). */
  role?: "dialog" | "alertdialog";
  class: string;
  /** Id of the element that names the dialog (its title). */
  labelledBy: string;
  describedBy?: string;
  testId: string;
  /** Dims the page behind it (not the drawer, which sits beside the table). */
  overlay?: boolean;
  children: ComponentChildren;
}

export function Dialog({
  role = "dialog",
  class: className,
  labelledBy,
  describedBy,
  testId,
  overlay = true,
  onEscape,
  initialFocus,
  children,
}: DialogProps) {
  const box = useRef<HTMLDivElement>(null);
  useDialogFocus(box, { onEscape, ...(initialFocus ? { initialFocus } : {}) });
  const dialog = (
    <div
      class={className}
      ref={box}
      role={role}
      aria-modal="true"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      data-testid={testId}
    >
      {children}
    </div>
  );
  return overlay ? <div class="overlay">{dialog}</div> : dialog;
}
