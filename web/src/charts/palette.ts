// Series colours shared by the charts: neighbours differ in hue, and white text stays readable on
// each in light and dark. "Other" is grey.
export const PALETTE = [
  "#2f6fde",
  "#1f8a70",
  "#7a4fd6",
  "#c2552d",
  "#2a8fb5",
  "#8a6d1f",
  "#b83f7a",
  "#4d6a8a",
];
export const OTHER_COLOUR = "#8a8f98";
