-- PKCE (issue 20): each connection's state carries the code_verifier whose challenge went into the
-- authorize URL, encrypted with the app's key like the platforms' tokens (it must be sent as it is at
-- the code exchange, so a hash would not do). A code is then only good for the flow it was minted for.
-- States minted before this have no verifier: those flows are over (ten minutes) or must start again.
delete from oauth_states;
alter table oauth_states add column code_verifier_enc text not null;
