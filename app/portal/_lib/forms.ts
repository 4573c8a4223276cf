"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import type { UrlCheck } from "@/components/portal/endpoint-form";
import { ApiFailure } from "./api";

/** Field messages of a 422, keyed by the field's name (`body.url` → `url`); the rest as one text. */
export function fieldErrorsOf(err: unknown): { fields: Record<string, string>; form?: string } {
  if (!(err instanceof ApiFailure)) return err instanceof Error ? { fields: {}, form: err.message } : { fields: {} };
  if (err.fields.length === 0) return { fields: {}, form: err.message };
  const fields: Record<string, string> = {};
  for (const f of err.fields) {
    const path = f.loc[0] === "body" ? f.loc.slice(1) : f.loc;
    const key = String(path[0] ?? "form");
    fields[key] = path.length > 1 ? `${path.slice(1).join(".")}: ${f.msg}` : f.msg;
  }
  return { fields, form: err.message };
}

const DEBOUNCE_MS = 350;

/** `value` once it has stopped changing for a moment: what is sent to the server as someone types. */
export function useDebounced<T>(value: T, ms = DEBOUNCE_MS): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

/** As-you-type URL validation through the server's rules (SSRF policy included), debounced. */
export function useUrlCheck(validate: (url: string, signal: AbortSignal) => Promise<{ ok: true } | { ok: false; reason: string }>) {
  const [check, setCheck] = useState<UrlCheck>({ state: "idle" });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inflight = useRef<AbortController | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      inflight.current?.abort();
    },
    [],
  );
  const onChange = useCallback(
    (url: string) => {
      if (timer.current) clearTimeout(timer.current);
      inflight.current?.abort();
      if (url.trim() === "") return setCheck({ state: "idle" });
      setCheck({ state: "checking" });
      timer.current = setTimeout(() => {
        const ctrl = new AbortController();
        inflight.current = ctrl;
        validate(url.trim(), ctrl.signal)
          .then((r) => setCheck(r.ok ? { state: "ok" } : { state: "error", message: r.reason }))
          .catch((e: unknown) => {
            if (ctrl.signal.aborted) return;
            setCheck({ state: "error", message: e instanceof Error ? e.message : "could not check this URL" });
          });
      }, DEBOUNCE_MS);
    },
    [validate],
  );
  return [check, onChange] as const;
}
