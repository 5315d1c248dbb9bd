// /settings/profile: the name and Background the assistant knows the person by, and their memories.
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client.ts';
import { useEditDraft } from '../lib/drafts.ts';
import type { ResponseOf } from '../api/types.ts';
import { useSession } from '../session/session.tsx';
import { useDocumentTitle } from '../ui/document-title.ts';
import { Field, TextAreaField } from '../ui/field.tsx';
import { FormAlert, Note } from '../ui/form-alert.tsx';
import { useAction } from '../ui/use-action.ts';
import { useLoad } from '../ui/use-load.ts';
import { MemoriesSection } from './memories-section.tsx';

export type Profile = ResponseOf<'/api/auth/user_profile', 'get'>;

export function ProfilePage() {
  useDocumentTitle('Profile and memories');
  const profile = useLoad((signal) => call(api.GET('/api/auth/user_profile', { signal })));
  return (
    <>
      <h1>Profile and memories</h1>
      <FormAlert problem={profile.problem} />
      {profile.loading && !profile.data && <p role="status">Loading your profile…</p>}
      {profile.data && (
        <>
          <ProfileForm profile={profile.data} onSaved={(p) => profile.update(() => p)} />
          <MemoriesSection memories={profile.data.memories} onChange={(memories) => profile.update((p) => ({ ...p, memories }))} />
        </>
      )}
    </>
  );
}

function ProfileForm({ profile, onSaved }: { profile: Profile; onSaved: (profile: Profile) => void }) {
  const { refresh } = useSession();
  // Unsaved changes are kept in local storage (a sign-in detour or a reload loses nothing).
  const name = useEditDraft('profile.name', profile.name);
  const background = useEditDraft('profile.background', profile.slack_title);
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    setSaved(false);
    onSaved(await call(api.PUT('/api/auth/user_profile', { body: { name: name.value, slack_title: background.value } })));
    name.discard();
    background.discard();
    setSaved(true);
    // The top bar shows the name.
    await refresh();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };
  return (
    <section aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <form onSubmit={submit} noValidate>
        <FormAlert problem={save.problem} />
        <Field label="Name" name="name" autoComplete="name" value={name.value} onChange={name.set} error={save.fieldError('name')} />
        <TextAreaField
          label="Background"
          name="background"
          rows={4}
          value={background.value}
          onChange={background.set}
          error={save.fieldError('slack_title')}
          hint="Your role and what you work on. The assistant reads it to pitch its answers."
        />
        <div className="actions">
          <button type="submit" className="primary" disabled={save.pending}>
            Save profile
          </button>
          {saved && <Note>Profile saved.</Note>}
        </div>
      </form>
    </section>
  );
}
