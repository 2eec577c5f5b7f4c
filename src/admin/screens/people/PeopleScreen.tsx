/**
 * The people area (owner only): everyone with an account, inviting someone,
 * changing a role, re-sending an invitation, removing a person, and the
 * "second factor for everyone" switch.
 */
import { useState } from "react";
import type { Person } from "../../../shared/admin/people.ts";
import type { Role } from "../../../shared/admin/roles.ts";
import { api, read } from "../../api/client.ts";
import { useResource } from "../../api/use-resource.ts";
import { useMe, useSession } from "../../auth/session.tsx";
import { Notice } from "../../components/Notice.tsx";
import { InviteForm } from "./InviteForm.tsx";
import { PeopleTable } from "./PeopleTable.tsx";
import { RemoveDialog } from "./RemoveDialog.tsx";
import { SecondFactorSettingPanel } from "./SecondFactorSetting.tsx";
import "./shared.css";
import "./people.css";
import { failureText } from "../../api/refusal.ts";

interface Outcome {
  tone: "success" | "error";
  text: string;
}

const nameOf = (person: Person) => person.name || person.email;
const ARTICLE: Record<Role, string> = {
  owner: "an owner",
  editor: "an editor",
  viewer: "a viewer",
};

export default function PeopleScreen() {
  const me = useMe();
  const { signedIn } = useSession();
  const people = useResource(read("people.list"));
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [removing, setRemoving] = useState<Person | null>(null);

  const fail = (error: unknown) => setOutcome({ tone: "error", text: failureText(error) });

  async function changeRole(person: Person, role: Role): Promise<boolean> {
    setOutcome(null);
    try {
      await api.call("people.changeRole", { params: { id: person.id }, body: { role } });
      setOutcome({ tone: "success", text: `${nameOf(person)} is now ${ARTICLE[role]}.` });
      // A change to one's own role changes what the console shows at once.
      if (person.id === me.id) {
        const { me: now } = await api.call("session.read");
        if (now) signedIn(now);
      }
      people.reload();
      return true;
    } catch (error) {
      fail(error);
      return false;
    }
  }

  async function resend(person: Person) {
    setOutcome(null);
    try {
      const { message } = await api.call("people.resendInvitation", { params: { id: person.id } });
      setOutcome({ tone: "success", text: `${nameOf(person)}: ${message}` });
    } catch (error) {
      fail(error);
    }
  }

  function removed(person: Person) {
    setRemoving(null);
    setOutcome({ tone: "success", text: `${nameOf(person)} no longer has an account.` });
    people.reload();
  }

  return (
    <div className="people">
      <div className="screen-head">
        <h1>People</h1>
        <p className="screen-lead">
          Who can sign in to the console, and what each may do. Only owners see this page.
        </p>
      </div>
      <div className="people-forms">
        <InviteForm
          onInvited={(person) => {
            setOutcome({
              tone: "success",
              text: `Invitation sent to ${person.email}. They appear below until they set a password.`,
            });
            people.reload();
          }}
        />
        <SecondFactorSettingPanel />
      </div>
      <section aria-labelledby="people-title" className="people-section">
        <h2 id="people-title">Everyone with an account</h2>
        {outcome ? <Notice tone={outcome.tone}>{outcome.text}</Notice> : null}
        {people.error ? <Notice tone="error">{people.error}</Notice> : null}
        {people.data ? (
          <PeopleTable
            people={people.data.people}
            myId={me.id}
            onRoleChange={changeRole}
            onResend={resend}
            onRemove={setRemoving}
          />
        ) : people.loading ? (
          <p role="status">Loading…</p>
        ) : null}
      </section>
      <RemoveDialog person={removing} onClose={() => setRemoving(null)} onRemoved={removed} />
    </div>
  );
}
