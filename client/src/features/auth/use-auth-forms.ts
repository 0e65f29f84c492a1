import { useState } from 'react';
import { CREDENTIALS_REQUIRED, INVITE_REQUIRED } from '@clipshift/shared';
import { useLoginMutation, useRegisterMutation } from '@/api/auth';
import { formErrorMessage } from '@/api/errors';

const LOGIN_FAILED = 'Login failed';
const REGISTRATION_FAILED = 'Registration failed';

interface Credentials {
  username: string;
  password: string;
}

/** Trimmed username and password are both required (spec section 5). */
function credentialsProblem({ username, password }: Credentials): string | null {
  return username.trim() && password.trim() ? null : CREDENTIALS_REQUIRED;
}

/** Signs in; on success the caller marks the session authenticated. */
export function useLoginSubmit(onAuthenticated: () => void) {
  const login = useLoginMutation();
  const [error, setError] = useState<string | null>(null);

  const submit = async (credentials: Credentials) => {
    const problem = credentialsProblem(credentials);
    setError(problem);
    if (problem) return;
    try {
      await login.mutateAsync({ username: credentials.username.trim(), password: credentials.password });
      onAuthenticated();
    } catch (caught) {
      setError(formErrorMessage(caught, LOGIN_FAILED));
    }
  };

  return { submit, error, pending: login.isPending };
}

export interface Registration extends Credentials {
  inviteCode: string;
}

/** Registers, then signs in with the same credentials (spec section 4). */
export function useRegisterSubmit(inviteRequired: boolean, onAuthenticated: () => void) {
  const register = useRegisterMutation();
  const login = useLoginMutation();
  const [error, setError] = useState<string | null>(null);

  const submit = async ({ inviteCode, ...credentials }: Registration) => {
    const problem = credentialsProblem(credentials) ?? (inviteRequired && !inviteCode.trim() ? INVITE_REQUIRED : null);
    setError(problem);
    if (problem) return;
    const username = credentials.username.trim();
    try {
      await register.mutateAsync({
        username,
        password: credentials.password,
        invite_code: inviteRequired ? inviteCode.trim() : undefined,
      });
    } catch (caught) {
      setError(formErrorMessage(caught, REGISTRATION_FAILED));
      return;
    }
    try {
      await login.mutateAsync({ username, password: credentials.password });
      onAuthenticated();
    } catch (caught) {
      setError(formErrorMessage(caught, LOGIN_FAILED));
    }
  };

  return { submit, error, pending: register.isPending || login.isPending };
}
