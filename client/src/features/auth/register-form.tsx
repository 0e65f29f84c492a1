import { useState, type FormEvent } from 'react';
import { INVITE_CODE_HINT, PASSWORD_RULE } from '@clipshift/shared';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { CredentialFields } from './credential-fields';
import { FormError } from './form-error';
import { useRegisterSubmit } from './use-auth-forms';

interface RegisterFormProps {
  inviteRequired: boolean;
  onAuthenticated: () => void;
}

/** The spec's hint, with the code's shape kept on one line. */
function InviteCodeHint() {
  const [lead, shape] = INVITE_CODE_HINT.split(': ');
  return (
    <p id="register-invite-code-hint" className="text-xs text-muted-foreground">
      {lead}: <span className="font-mono whitespace-nowrap">{shape}</span>
    </p>
  );
}

function InviteCodeField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <div className="space-y-2">
      <Label htmlFor="register-invite-code">Invite code</Label>
      <Input
        id="register-invite-code"
        name="invite_code"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        aria-required="true"
        aria-describedby="register-invite-code-hint"
        placeholder="XXXX-XXXX-XXXX-XXXX-XXXX-XXXX"
        className="font-mono tracking-wide"
        value={value}
        onChange={(event) => onChange(event.target.value.toUpperCase())}
      />
      <InviteCodeHint />
    </div>
  );
}

export function RegisterForm({ inviteRequired, onAuthenticated }: RegisterFormProps) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [inviteCode, setInviteCode] = useState('');
  const { submit, error, pending } = useRegisterSubmit(inviteRequired, onAuthenticated);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit({ username, password, inviteCode });
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="space-y-4" aria-label="Register">
      <CredentialFields
        idPrefix="register"
        username={username}
        password={password}
        onUsernameChange={setUsername}
        onPasswordChange={setPassword}
        passwordAutoComplete="new-password"
        passwordHint={PASSWORD_RULE}
      />
      {inviteRequired && <InviteCodeField value={inviteCode} onChange={setInviteCode} />}
      <FormError message={error} />
      <Button type="submit" variant="brand" className="w-full" disabled={pending}>
        {pending ? 'Creating account...' : 'Register'}
      </Button>
    </form>
  );
}
