import { toast } from 'sonner';

/** A notice; `description`, when given, shows under its message (a call's warnings). */
const withDescription = (description?: string) => (description ? { description } : undefined);

export const notify = {
  success: (message: string, description?: string) => toast.success(message, withDescription(description)),
  info: (message: string) => toast.info(message),
  warning: (message: string) => toast.warning(message),
  error: (message: string) => toast.error(message),
};
