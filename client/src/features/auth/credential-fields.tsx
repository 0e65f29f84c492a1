import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';

interface CredentialFieldsProps {
  /** Prefix of the inputs' ids ("login", "register"). */
  idPrefix: string;
  username: string;
  password: string;
  onUsernameChange: (value: string) => void;
  onPasswordChange: (value: string) => void;
  /** current-password to sign in, new-password to register (password managers rely on it). */
  passwordAutoComplete: 'current-password' | 'new-password';
  /** A rule shown under the password. */
  passwordHint?: string;
}

/** Username and password, as both the login and the register form ask for them. */
export function CredentialFields(props: CredentialFieldsProps) {
  const hintId = props.passwordHint ? `${props.idPrefix}-password-hint` : undefined;
  return (
    <>
      <div className="space-y-2">
        <Label htmlFor={`${props.idPrefix}-username`}>Username</Label>
        <Input
          id={`${props.idPrefix}-username`}
          name="username"
          autoComplete="username"
          aria-required="true"
          value={props.username}
          onChange={(event) => props.onUsernameChange(event.target.value)}
        />
      </div>
      <div className="space-y-2">
        <Label htmlFor={`${props.idPrefix}-password`}>Password</Label>
        <Input
          id={`${props.idPrefix}-password`}
          name="password"
          type="password"
          autoComplete={props.passwordAutoComplete}
          aria-required="true"
          aria-describedby={hintId}
          value={props.password}
          onChange={(event) => props.onPasswordChange(event.target.value)}
        />
        {props.passwordHint && (
          <p id={hintId} className="text-xs text-muted-foreground">
            {props.passwordHint}
          </p>
        )}
      </div>
    </>
  );
}
