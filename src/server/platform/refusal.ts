/**
 * A failure a person can act on (a setting, an argument, the state of the
 * database or of a file they gave): its message says what to do, and it is
 * all they are shown, without a stack trace. Only a fault nobody caused
 * shows its stack.
 */
export class Refusal extends Error {}
