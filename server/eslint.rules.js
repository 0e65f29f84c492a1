// Import boundary rules of this workspace (see eslint.config.js at the root).
export default [];
