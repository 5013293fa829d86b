// A docs sidebar shaped like River Review's (a Docusaurus sidebars.js with
// a category of guide pages), written for the tests: apply.sh registers the
// guide in it after guides/use-riverbed-memory.
module.exports = {
  docs: [
    'index',
    {
      type: 'category',
      label: 'Guides',
      items: [
        'guides/quickstart',
        'guides/use-riverbed-memory',
        'guides/tracing',
      ],
    },
  ],
};
