"use client";
import { useState } from "react";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { inputClass } from "../ui/field";
import { ErrorText } from "../ui/notice";

/** Deleting is final: this spells out what is lost and asks for the word "delete". */
export function DeleteEndpointDialog({
  open,
  url,
  onClose,
  onConfirm,
  deleting,
  error,
}: {
  open: boolean;
  url: string;
  onClose: () => void;
  onConfirm: () => void;
  deleting: boolean;
  error?: string | undefined;
}) {
  const [typed, setTyped] = useState("");
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Delete this endpoint?"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" disabled={typed.trim().toLowerCase() !== "delete" || deleting} onClick={onConfirm}>
            {deleting ? "Deleting…" : "Delete endpoint"}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-slate-700">
        <p className="break-all font-mono text-xs">{url}</p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>Its delivery and replay state is destroyed:</strong> the delivery log, every attempt, pending
            retries and dead-lettered deliveries of this endpoint are deleted and cannot be retried or replayed to it.
          </li>
          <li>
            <strong>Re-creating an endpoint with the same URL starts from nothing.</strong> It gets a new id and a new
            secret, and only receives events published after it is created; nothing missed in between is sent.
          </li>
          <li>To stop deliveries for a while without losing anything, pause the endpoint instead.</li>
        </ul>
        <label className="block space-y-1">
          <span className="font-medium text-slate-800">Type &quot;delete&quot; to confirm</span>
          <input className={inputClass} value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
        </label>
        <ErrorText message={error} />
      </div>
    </Dialog>
  );
}
