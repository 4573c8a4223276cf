"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { PageHeader } from "@/components/portal/page-header";
import { Button } from "@/components/ui/button";
import { CopyField } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { Field, inputClass } from "@/components/ui/field";
import { formatTime } from "@/components/ui/format";
import { ErrorText, Notice, Spinner } from "@/components/ui/notice";
import { api, fieldError } from "../_lib/api";
import { useConsole } from "../_lib/providers";
import type { List } from "../_lib/queries";

// Operators of the environment, through /api/v1/environment/member (lib/accounts/members.ts:
// owners and admins manage members, only an owner touches the owner role, the last owner stays).

type Role = "owner" | "admin" | "viewer";
type Member = { userId: string; email: string; name: string | null; role: Role; createdAt: string };
type Invited = Member & { invite: { sent: boolean; url: string | null; expiresAt: string | null; note: string | null } | null };
const ROLES: { role: Role; help: string }[] = [
  { role: "owner", help: "everything, including owners" },
  { role: "admin", help: "everything but the owner role and API keys" },
  { role: "viewer", help: "reads everything, changes nothing" },
];

export function MembersView() {
  const { environment, canWrite, user } = useConsole();
  const qc = useQueryClient();
  const key = [environment.id, "members"];
  const members = useQuery({ queryKey: key, queryFn: () => api<List<Member>>("/environment/member") });
  const refresh = () => qc.invalidateQueries({ queryKey: key });
  const invite = useMutation({ mutationFn: (body: { email: string; role: Role }) => api<Invited>("/environment/member", { method: "POST", body }), onSuccess: refresh });
  const change = useMutation({
    mutationFn: ({ email, role }: { email: string; role: Role }) => api<Member>(`/environment/member/${encodeURIComponent(email)}`, { method: "PATCH", body: { role } }),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: (email: string) => api<void>(`/environment/member/${encodeURIComponent(email)}`, { method: "DELETE" }), onSuccess: refresh });
  const [email, setEmail] = useState("");
  const [removing, setRemoving] = useState<Member | null>(null);
  const [role, setRole] = useState<Role>("viewer");
  // Offer only what the server allows (members.ts): the owner role is an owner's to give, touch
  // or take, and the last owner stays. What it would refuse is shown as text with the reason.
  const isOwner = environment.role === "owner";
  const grantable = ROLES.filter((r) => isOwner || r.role !== "owner");
  const owners = members.data?.data.filter((m) => m.role === "owner").length ?? 0;
  const locked = (m: Member) =>
    m.role !== "owner" ? null : !isOwner ? "Only an owner can change or remove an owner." : owners <= 1 ? "The last owner: make someone else an owner first." : null;
  const invited = invite.data;
  const askedRole = invite.variables?.role;

  return (
    <>
      <PageHeader title="Members" description={`People who operate ${environment.name} in this console, and what they may do.`} />
      {canWrite && (
        <form
          className="mb-4 flex max-w-2xl flex-wrap items-end gap-2"
          aria-label="Invite an operator"
          onSubmit={(e) => {
            e.preventDefault();
            invite.mutate({ email: email.trim(), role }, { onSuccess: () => setEmail("") });
          }}
        >
          <div className="min-w-64 flex-1">
            <Field label="Email" error={fieldError(invite.error, "email")}>
              {(f) => <input id={f.id} type="email" required aria-describedby={f.describedBy} aria-invalid={f.invalid} className={inputClass} value={email} onChange={(e) => setEmail(e.target.value)} />}
            </Field>
          </div>
          <Field label="Role">
            {(f) => (
              <select id={f.id} className={inputClass} value={role} onChange={(e) => setRole(e.target.value as Role)}>
                {grantable.map((r) => (
                  <option key={r.role} value={r.role}>
                    {r.role} ({r.help})
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Button type="submit" variant="primary" disabled={invite.isPending}>
            Invite
          </Button>
        </form>
      )}
      {invite.error && !fieldError(invite.error, "email") && <ErrorText message={invite.error.message} className="mb-3 text-sm" />}
      {invited && (
        <div className="mb-4">
          {/* invite is null only when they already were a member who can sign in; a member who never
              signed in is sent a new invitation. Either way the API left an existing member's role as it was. */}
          <Notice
            tone="success"
            title={
              invited.invite
                ? `${invited.email} is a member (${invited.role})${askedRole && askedRole !== invited.role ? "; their role stayed: change it in the list" : ""}`
                : `${invited.email} is already a member as ${invited.role}${askedRole && askedRole !== invited.role ? "; change their role in the list" : ""}`
            }
          >
            {invited.invite?.sent && "An email with a sign-in link is on its way."}
            {invited.invite?.url && (
              <span className="mt-1 flex flex-col gap-2">
                <span>
                  Email is not configured: hand over this one-time sign-in link (expires {formatTime(invited.invite.expiresAt)}). It is shown only here, once: copy it before you leave
                  this page.
                </span>
                <CopyField text={invited.invite.url} label="Copy invite link" what="invite link" />
              </span>
            )}
            {invited.invite && !invited.invite.sent && !invited.invite.url && invited.invite.note}
          </Notice>
        </div>
      )}
      {members.isPending && <Spinner label="Loading members" />}
      {members.error && <Notice tone="error">{members.error.message}</Notice>}
      {members.data && (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Members</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase text-slate-500">
              <tr>
                <th scope="col" className="px-3 py-2">Member</th>
                <th scope="col" className="px-3 py-2">Role</th>
                <th scope="col" className="px-3 py-2">Since</th>
                <th scope="col" className="px-3 py-2"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {members.data.data.map((m) => (
                <tr key={m.userId}>
                  <td className="px-3 py-2">
                    <span className="font-medium">{m.name ?? m.email}</span>
                    {m.name && <span className="block text-xs text-slate-500">{m.email}</span>}
                    {m.email === user.email && <span className="ml-1 text-xs text-slate-500">(you)</span>}
                  </td>
                  <td className="px-3 py-2">
                    {canWrite && !locked(m) ? (
                      <select
                        aria-label={`Role of ${m.email}`}
                        className="rounded border border-slate-300 bg-white px-2 py-1 text-sm"
                        value={m.role}
                        disabled={change.isPending}
                        onChange={(e) => change.mutate({ email: m.email, role: e.target.value as Role })}
                      >
                        {grantable.map((r) => (
                          <option key={r.role} value={r.role}>
                            {r.role}
                          </option>
                        ))}
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td className="px-3 py-2 text-xs text-slate-600">{formatTime(m.createdAt)}</td>
                  <td className="px-3 py-2 text-right">
                    {canWrite &&
                      (locked(m) ? (
                        <span className="text-xs text-slate-500">{locked(m)}</span>
                      ) : (
                        <Button
                          size="sm"
                          variant="danger"
                          aria-label={`Remove ${m.email}`}
                          disabled={remove.isPending}
                          onClick={() => {
                            remove.reset();
                            setRemoving(m);
                          }}
                        >
                          Remove
                        </Button>
                      ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ErrorText message={change.error?.message} className="mt-2 text-sm" />
      <Dialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title={`Remove ${removing?.email ?? ""}?`}
        footer={
          <>
            <Button onClick={() => setRemoving(null)}>Cancel</Button>
            <Button variant="danger" disabled={remove.isPending} onClick={() => removing && remove.mutate(removing.email, { onSuccess: () => setRemoving(null) })}>
              Remove member
            </Button>
          </>
        }
      >
        <p className="text-sm text-slate-700">
          {removing?.email === user.email
            ? `You lose access to ${environment.name} at once, and only an owner or admin can invite you back.`
            : `They lose access to ${environment.name} at once (signed out everywhere if it was their last access). Invite them again to give it back.`}
        </p>
        <ErrorText message={remove.error?.message} className="mt-2 text-sm" />
      </Dialog>
    </>
  );
}
