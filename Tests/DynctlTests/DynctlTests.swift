// Placeholder until the dynctl end-to-end tests land.
