"use client";
import { useContext, useEffect, useRef, type ReactNode } from "react";
import { BrandNameContext } from "./portal-theme";

// The first page of a visit keeps the browser's focus (the skip link is the first Tab stop);
// every page reached by navigating inside the portal moves focus to its heading, so keyboard
// and screen-reader users start at the new content instead of on the link they activated.
let firstPageShown = false;

export function PageHeader({
  title,
  description,
  actions,
  focusOnNavigate = true,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** false when the page moves focus somewhere more useful itself (e.g. a success notice). */
  focusOnNavigate?: boolean;
}) {
  const brand = useContext(BrandNameContext);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (brand === null) return; // not in the portal: the page's metadata names it
    const wanted = `${title} · ${brand}`;
    document.title = wanted;
    // Next.js streams the layout's metadata <title> ("Webhooks portal") into the head after the
    // page has rendered, and again on navigation, which overwrote the page's own title: put it
    // back whenever the head's title changes while this page is shown.
    const keep = new MutationObserver(() => {
      if (document.title !== wanted) document.title = wanted;
    });
    keep.observe(document.head, { childList: true, subtree: true, characterData: true });
    return () => keep.disconnect();
  }, [title, brand]);
  useEffect(() => {
    if (firstPageShown && focusOnNavigate) heading.current?.focus({ preventScroll: true });
    firstPageShown = true;
    // Only when the page appears, not when its title changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="mb-5 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h1 ref={heading} tabIndex={-1} className="break-words text-2xl font-semibold text-slate-900 focus:outline-none">
          {title}
        </h1>
        {description && <div className="mt-1 max-w-3xl text-sm text-slate-600">{description}</div>}
      </div>
      {actions && <div className="flex shrink-0 flex-wrap gap-2">{actions}</div>}
    </div>
  );
}
