import { CircleAlert } from 'lucide-react';
import { Alert } from '@/components/ui/alert';

export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert variant="destructive" role="alert">
      <CircleAlert aria-hidden="true" />
      <span>{message}</span>
    </Alert>
  );
}
