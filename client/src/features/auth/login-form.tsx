import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { CredentialFields } from './credential-fields';
import { FormError } from './form-error';
import { useLoginSubmit } from './use-auth-forms';

export function LoginForm({ onAuthenticated }: { onAuthenticated: () => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const { submit, error, pending } = useLoginSubmit(onAuthenticated);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void submit({ username, password });
  };

  return (
    <form onSubmit={handleSubmit} noValidate className="space-y-4" aria-label="Login">
      <CredentialFields
        idPrefix="login"
        username={username}
        password={password}
        onUsernameChange={setUsername}
        onPasswordChange={setPassword}
        passwordAutoComplete="current-password"
      />
      <FormError message={error} />
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Logging in...' : 'Login'}
      </Button>
    </form>
  );
}
