"use client";
import { useRouter, useSearchParams } from "next/navigation";
import { Suspense, useState } from "react";
import { SigningScheme } from "@/components/portal/delivery-status";
import { PageHeader } from "@/components/portal/page-header";
import { CodeBlock } from "@/components/ui/code-block";
import { Spinner } from "@/components/ui/notice";
import { Tabs } from "@/components/ui/tabs";
import { CLASSIC_MISTAKES, STANDARD_HEADERS, verifySnippets, type SnippetLanguage } from "@/lib/portal/verify-snippets";
import { useEndpoints, useSettings } from "../../_lib/queries";

function Verify() {
  const params = useSearchParams();
  const router = useRouter();
  const endpoints = useEndpoints();
  const settings = useSettings();
  const [language, setLanguage] = useState<SnippetLanguage>("node");
  const endpointId = params.get("endpoint") ?? endpoints.data?.data[0]?.id ?? null;
  const endpoint = endpoints.data?.data.find((e) => e.id === endpointId);
  const algorithm = endpoint?.signing ?? "hmac_sha256";
  const headers = settings.data?.signatureHeaders ?? STANDARD_HEADERS;
  const snippets = verifySnippets({ headers, algorithm });
  const current = snippets.find((s) => s.language === language) ?? snippets[0]!;
  return (
    <>
      <PageHeader
        title="Verify signatures"
        description={
          <>
            Every delivery is signed (Standard Webhooks). Your server must check the signature before trusting a request: it proves the request
            came from us, unaltered, within the last {Math.round((settings.data?.signatureToleranceSeconds ?? 300) / 60)} minutes.
          </>
        }
      />
      <section aria-labelledby="mistakes-heading" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4">
        <h2 id="mistakes-heading" className="text-base font-semibold text-amber-950">
          The three mistakes that break most integrations
        </h2>
        <ol className="mt-2 list-decimal space-y-2 pl-5 text-sm text-amber-950">
          {CLASSIC_MISTAKES.map((m) => (
            <li key={m.title}>
              <strong>{m.title}.</strong> {m.detail}
            </li>
          ))}
        </ol>
      </section>
      <div className="mb-4 flex flex-wrap items-end gap-4">
        {endpoints.data && endpoints.data.data.length > 0 && (
          <label className="w-full min-w-0 space-y-1 text-sm sm:w-auto">
            <span className="block font-medium">For endpoint</span>
            <select
              className="w-full max-w-full truncate rounded-md border border-slate-300 bg-white px-2 py-2 text-sm sm:w-auto sm:max-w-md"
              value={endpointId ?? ""}
              onChange={(e) => router.replace(`/portal/verify?endpoint=${e.target.value}`, { scroll: false })}
            >
              {endpoints.data.data.map((ep) => (
                <option key={ep.id} value={ep.id}>
                  {ep.url}
                </option>
              ))}
            </select>
          </label>
        )}
        <dl className="grid min-w-0 grid-cols-[auto_1fr] gap-x-3 break-all text-xs text-slate-700">
          <dt className="font-medium">Signing</dt>
          <dd>
            <SigningScheme signing={algorithm === "ed25519" ? "ed25519" : "hmac_sha256"} />
          </dd>
          <dt className="font-medium">Headers</dt>
          <dd className="font-mono">
            {headers.id}, {headers.timestamp}, {headers.signature}
            {settings.data?.svixHeaderAliases ? " (also sent as svix-id, svix-timestamp, svix-signature)" : ""}
          </dd>
          <dt className="font-medium">Signed content</dt>
          <dd className="font-mono">{`{${headers.id}}.{${headers.timestamp}}.{raw body}`}</dd>
        </dl>
      </div>
      <Tabs label="Language" tabs={snippets.map((s) => ({ key: s.language, label: s.label }))} selected={current.language} onSelect={setLanguage}>
        <p className="mb-2 break-words text-sm text-slate-600">
          {current.dependencies ? `Needs: ${current.dependencies}. ` : "Standard library only. "}Run: <code className="text-xs">{current.run}</code>. Set{" "}
          <code>WEBHOOK_SECRET</code> to the endpoint&apos;s {algorithm === "ed25519" ? "public key" : "secret"} (on the endpoint page).
        </p>
        <CodeBlock title={current.filename} copyLabel={`${current.label} snippet`} code={current.code} maxHeight="40rem" />
      </Tabs>
    </>
  );
}

export default function VerifyPage() {
  return (
    <Suspense fallback={<Spinner label="Loading" />}>
      <Verify />
    </Suspense>
  );
}
