// A row's secondary actions behind one button (issue 40 item 4): "⋯" opens a menu of them, which the
// keyboard walks (arrows, Home, End), Escape or a click elsewhere closes, and focus returns to the
// button — the WAI-ARIA menu button pattern. The primary action stays in view beside it.
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

export interface MenuItem {
  label: string;
  /** What a screen reader says; defaults to the label. */
  name?: string;
  danger?: boolean;
  onSelect: () => void;
}

export function RowMenu({ label, items, testId }: { label: string; items: MenuItem[]; testId?: string }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);

  const refocus = useRef(false);

  const entries = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>("[role=menuitem]") ?? [])];
  const close = (focusButton: boolean) => {
    refocus.current = focusButton;
    setOpen(false);
  };

  // Back to the button once the menu is gone, not before: removing the focused item would drop focus.
  useEffect(() => {
    if (!open && refocus.current) {
      refocus.current = false;
      button.current?.focus();
    }
  }, [open]);

  useEffect(() => {
    if (!open) {
      return;
    }
    // Placed against the viewport, under the button's right edge: a table's scrolling wrapper would
    // cut a menu placed inside it.
    const place = () => {
      const anchor = button.current?.getBoundingClientRect();
      const list = menu.current;
      if (!anchor || !list) {
        return;
      }
      const below = anchor.bottom + 4 + list.offsetHeight <= window.innerHeight;
      list.style.top = `${below ? anchor.bottom + 4 : Math.max(4, anchor.top - 4 - list.offsetHeight)}px`;
      list.style.left = `${Math.max(4, Math.min(anchor.right - list.offsetWidth, window.innerWidth - list.offsetWidth - 4))}px`;
    };
    place();
    entries()[0]?.focus();
    const outside = (event: MouseEvent) => {
      const target = event.target as Node;
      if (!menu.current?.contains(target) && !button.current?.contains(target)) {
        setOpen(false);
      }
    };
    const away = () => setOpen(false);
    document.addEventListener("mousedown", outside);
    window.addEventListener("resize", away);
    window.addEventListener("scroll", away, true);
    return () => {
      document.removeEventListener("mousedown", outside);
      window.removeEventListener("resize", away);
      window.removeEventListener("scroll", away, true);
    };
  }, [open]);

  const onKey = (event: KeyboardEvent) => {
    const all = entries();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const go = (index: number) => {
      event.preventDefault();
      all[(index + all.length) % all.length]?.focus();
    };
    switch (event.key) {
      case "ArrowDown": go(at + 1); break;
      case "ArrowUp": go(at - 1); break;
      case "Home": go(0); break;
      case "End": go(all.length - 1); break;
      case "Escape":
        event.preventDefault();
        close(true);
        break;
      case "Tab":
        setOpen(false);
        break;
      default:
    }
  };

  if (items.length === 0) {
    return null;
  }
  return (
    <span class="row-menu">
      <button ref={button} type="button" class="button button-small" aria-haspopup="menu" aria-expanded={open}
        aria-label={label} title={label} data-testid={testId} onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}>⋯</button>
      {open && (
        <ul ref={menu} role="menu" aria-label={label} class="row-menu-list" onKeyDown={onKey}>
          {items.map((item) => (
            <li key={item.label} role="none">
              <button type="button" role="menuitem" tabIndex={-1} class={item.danger ? "menu-danger" : undefined}
                aria-label={item.name} onClick={() => {
                  // Focus on the button first: a question the action asks returns focus there.
                  button.current?.focus();
                  close(false);
                  item.onSelect();
                }}>{item.label}</button>
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}

/** Children laid out as a row's actions: the primary in view, then the menu. */
export function RowActions({ children }: { children: ComponentChildren }) {
  return <div class="row-actions-inline">{children}</div>;
}
