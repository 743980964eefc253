/**
 * The caller could not be authenticated. The message is safe to return to the
 * client and to log: it never contains the token or any part of it.
 */
export class AuthenticationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthenticationError';
  }
}
