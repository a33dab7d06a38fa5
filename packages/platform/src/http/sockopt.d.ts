// sockopt ships no types: what send-buffer.ts takes of it is typed there.
declare module 'sockopt';
