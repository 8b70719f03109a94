"use client";

import { Card } from "@/components/console/ui/Card";
import { PageHeader } from "@/components/console/ui/PageHeader";
import { ErrorNotice, Loading } from "@/components/console/ui/Status";
import table from "@/components/console/ui/table.module.css";
import { useSession } from "@/lib/auth/hooks";
import { useGurus } from "@/lib/console/gurus";
import { useInvitations, useMembers } from "@/lib/members/hooks";

import { InvitationTable } from "./InvitationTable";
import { InviteForm } from "./InviteForm";
import { MemberRow } from "./MemberRow";

export function MembersPanel() {
  const { data: members, error, mutate } = useMembers();
  const { data: invitations, mutate: reloadInvitations } = useInvitations();
  const { data: gurus } = useGurus();
  const { data: session } = useSession();
  const slugs = (gurus ?? []).map((guru) => guru.slug);

  return (
    <>
      <PageHeader
        title="Members"
        description="Who may sign in, with which role, and the gurus granted to each."
      />
      <Card title="Invite a person">
        <InviteForm slugs={slugs} onInvited={() => void reloadInvitations()} />
      </Card>
      {invitations && invitations.length > 0 ? (
        <Card title="Open invitations">
          <InvitationTable invitations={invitations} onRevoked={() => void reloadInvitations()} />
        </Card>
      ) : null}
      <Card title="People" part="members">
        {error ? <ErrorNotice title="Members could not be loaded" error={error} /> : null}
        {!members && !error ? <Loading what="members" /> : null}
        {members && members.length > 0 ? (
          <div className={table.wrap}>
            <table className={table.table} aria-label="Members">
              <thead>
                <tr>
                  <th scope="col">Person</th>
                  <th scope="col">Role</th>
                  <th scope="col">Gurus granted</th>
                  <th scope="col">Access</th>
                </tr>
              </thead>
              <tbody>
                {members.map((member) => (
                  <MemberRow
                    key={member.id}
                    member={member}
                    slugs={slugs}
                    self={member.username === session?.user?.username}
                    onChanged={() => void mutate()}
                  />
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </Card>
    </>
  );
}
