// sockopt ships no types: what socket-options.ts takes of it is typed there.
declare module 'sockopt';
